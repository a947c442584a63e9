import { describe, expect, it } from 'vitest';
import { clientAddress, clientAddressHeader, DEFAULT_CLIENT_ADDRESS_HEADER, LOCAL_CLIENT } from './client-address.ts';
import { ConfigurationError } from './router.ts';

const from = (value?: string) => clientAddress(new Request('http://localhost/', value === undefined ? {} : { headers: { 'CF-Connecting-IP': value } }));

describe('clientAddress', () => {
  it('an IPv4 address is the client as it is', () => {
    expect(from('203.0.113.7')).toBe('203.0.113.7');
    expect(from(' 198.51.100.255 ')).toBe('198.51.100.255');
  });

  it('an IPv6 address is its /64, however it is written: the rest of the address is the client’s to pick', () => {
    const key = '2001:db8:85a3:8d3::/64';
    for (const address of ['2001:db8:85a3:8d3:1319:8a2e:370:7348', '2001:0DB8:85A3:08D3::1', '2001:db8:85a3:8d3::', '2001:db8:85a3:8d3:0:0:0:ffff']) {
      expect(from(address)).toBe(key);
    }
    expect(from('2001:db8:85a3:8d4::1')).not.toBe(key);
    expect(from('::1')).toBe('0:0:0:0::/64');
    expect(from('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('an IPv4-mapped IPv6 address is its IPv4 address', () => {
    expect(from('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(from('::ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('no header, or a value that is no address, is the one local client', () => {
    for (const value of [undefined, '', 'localhost', '256.1.1.1', '1.2.3', '2001:db8::1::2', '2001:db8:1:2:3:4:5:6:7', '12345::', 'g::1', '1:2:3:4:5:6:7']) {
      expect(from(value)).toBe(LOCAL_CLIENT);
    }
  });

  it('reads the header CLIENT_ADDRESS_HEADER names, a list by its last entry; a value that is no header name is a configuration error (budget34)', () => {
    expect(clientAddressHeader({})).toBe(DEFAULT_CLIENT_ADDRESS_HEADER);
    expect(clientAddressHeader({ CLIENT_ADDRESS_HEADER: ' ' })).toBe('cf-connecting-ip');
    expect(clientAddressHeader({ CLIENT_ADDRESS_HEADER: ' X-Real-IP ' })).toBe('x-real-ip');
    for (const value of ['X Real IP', 'x-real-ip:', 'ip\u00e9']) expect(() => clientAddressHeader({ CLIENT_ADDRESS_HEADER: value })).toThrow(ConfigurationError);
    const request = new Request('http://localhost/', { headers: { 'x-forwarded-for': '10.1.2.3, 2001:db8:1:2::9', 'cf-connecting-ip': '192.0.2.1' } });
    expect(clientAddress(request, 'x-forwarded-for')).toBe('2001:db8:1:2::/64');
    expect(clientAddress(request)).toBe('192.0.2.1');
    expect(clientAddress(request, 'x-real-ip')).toBe(LOCAL_CLIENT);
  });

  it('a client that writes the header itself, one line or several, a huge or empty value: the proxy\'s last entry decides (review34)', () => {
    const headers = new Headers();
    headers.append('x-forwarded-for', '198.51.100.1, 198.51.100.2');
    headers.append('x-forwarded-for', '203.0.113.9');
    expect(clientAddress({ headers }, 'x-forwarded-for')).toBe('203.0.113.9');
    const forged = (value: string) => clientAddress(new Request('http://localhost/', { headers: { 'x-real-ip': value } }), 'x-real-ip');
    expect(forged(`${'1.'.repeat(20_000)}1, 203.0.113.9`)).toBe('203.0.113.9');
    expect(forged(`${':'.repeat(20_000)}1`)).toBe(LOCAL_CLIENT);
    expect(forged('203.0.113.9, ')).toBe(LOCAL_CLIENT);
  });

  it('an address with its port (some proxies write it so) is the address; it was the one local client (review34)', () => {
    expect(from('203.0.113.7:51234')).toBe('203.0.113.7');
    expect(from('[2001:db8:85a3:8d3::1]:443')).toBe('2001:db8:85a3:8d3::/64');
    expect(from('[2001:db8:85a3:8d3::1]')).toBe('2001:db8:85a3:8d3::/64');
    expect(from('[::ffff:203.0.113.7]:80')).toBe('203.0.113.7');
    for (const value of ['203.0.113.7:', '203.0.113.7:123456', '256.0.0.1:80', '[2001:db8::1::2]:80', '[]:80']) expect(from(value)).toBe(LOCAL_CLIENT);
  });
});

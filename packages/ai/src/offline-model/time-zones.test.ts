import { describe, expect, it } from 'vitest';
import { findTimeZones, unknownPlace, zonedCountry } from './time-zones.ts';

const zones = (text: string) =>
  findTimeZones(text)
    .sort((a, b) => a.start - b.start)
    .map((match) => [match.zone, text.slice(match.start, match.end)]);

describe('findTimeZones', () => {
  it('reads a city\'s common abbreviation in capitals, and in lower case only as the place a message ends with', () => {
    expect(zones('time in LA')).toEqual([['America/Los_Angeles', 'LA']]);
    expect(zones('what time is it in SF?')).toEqual([['America/Los_Angeles', 'SF']]);
    expect(zones('NYC')).toEqual([['America/New_York', 'NYC']]);
    expect(zones('time in la?')).toEqual([['America/Los_Angeles', 'la']]);
    // French "la", and "ny" inside a sentence, are no place.
    expect(zones('Reporte la commande A-1003 à la fin du mois')).toEqual([]);
    expect(zones('is la commande late')).toEqual([]);
  });

  it("reads a country of one time zone as its zone, and leaves a city's country to the city", () => {
    expect(zones('time in India')).toEqual([['Asia/Kolkata', 'India']]);
    expect(zones('what time is it in Japan?')).toEqual([['Asia/Tokyo', 'Japan']]);
    expect(zones('Quelle heure est-il en Inde ?')).toEqual([['Asia/Kolkata', 'Inde']]);
    expect(zones('Uhrzeit in Großbritannien')).toEqual([['Europe/London', 'Großbritannien']]);
    expect(zones('time in the UK')).toEqual([['Europe/London', 'UK']]);
    expect(zones('time in Berlin, Germany')).toEqual([
      ['Europe/Berlin', 'Berlin'],
      ['Europe/Berlin', 'Germany'],
    ]);
    // Names that are everyday words are no country: "add a turkey", "Chad".
    expect(zones('add a turkey to my cart')).toEqual([]);
  });

  it('reads a country with parts elsewhere as its mainland zone, and names the zones those parts keep', () => {
    const others = (text: string) => findTimeZones(text).map((match) => [match.zone, match.others ?? []]);
    expect(others('time in Spain')).toEqual([['Europe/Madrid', ['Atlantic/Canary']]]);
    expect(others('Uhrzeit in Portugal')).toEqual([['Europe/Lisbon', ['Atlantic/Azores']]]);
    expect(others('time in New Zealand')).toEqual([['Pacific/Auckland', ['Pacific/Chatham']]]);
    expect(others("l'heure en France")[0]?.[1]).toContain('Indian/Reunion');
    // A city is its own zone; a country of one zone has no other.
    expect(others('time in Madrid')).toEqual([['Europe/Madrid', []]]);
    expect(others('time in Japan')).toEqual([['Asia/Tokyo', []]]);
  });

  it('reads the cities demo visitors name', () => {
    expect(zones('London, Tokyo, Sydney')).toEqual([
      ['Europe/London', 'London'],
      ['Asia/Tokyo', 'Tokyo'],
      ['Australia/Sydney', 'Sydney'],
    ]);
  });

  it('reads the places whose zones are half an hour or three quarters off the hour (Kathmandu: it did not know it)', () => {
    // The offset of a zone in January and in July, from the runtime's Intl data: each is off the hour in one of them.
    const offsets = (zone: string): string[] =>
      ['2026-01-15T12:00:00Z', '2026-07-15T12:00:00Z'].map(
        (day) => new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(new Date(day)).find((part) => part.type === 'timeZoneName')?.value ?? '',
      );
    const places: [string, string][] = [
      ['time in Kathmandu', 'Asia/Kathmandu'],
      ['Uhrzeit in Nepal', 'Asia/Kathmandu'],
      ['time in Tehran', 'Asia/Tehran'],
      ["l'heure en Iran", 'Asia/Tehran'],
      ['time in Kabul', 'Asia/Kabul'],
      ['time in Yangon', 'Asia/Yangon'],
      ['time in Colombo', 'Asia/Colombo'],
      ['time in Sri Lanka', 'Asia/Colombo'],
      ['time in Kolkata', 'Asia/Kolkata'],
      ['time in Adelaide', 'Australia/Adelaide'],
      ['time in Darwin', 'Australia/Darwin'],
      ["time in St John's", 'America/St_Johns'],
      ['time in Newfoundland', 'America/St_Johns'],
      ['time in Eucla', 'Australia/Eucla'],
      ['time in Lord Howe', 'Australia/Lord_Howe'],
      ['time in the Chatham Islands', 'Pacific/Chatham'],
      ['time in the Marquesas', 'Pacific/Marquesas'],
    ];
    for (const [text, zone] of places) {
      expect(findTimeZones(text).map((match) => match.zone), text).toEqual([zone]);
      expect(offsets(zone).some((offset) => /:(?:30|45)$/.test(offset)), zone).toBe(true);
    }
  });

  it('reads a place after a capital dotted I, whose lower case is two characters, at its own span', () => {
    expect(zones('What time is it in İstanbul?')).toEqual([['Europe/Istanbul', 'İstanbul']]);
    expect(zones('İyi günler, time in Tokyo?')).toEqual([['Asia/Tokyo', 'Tokyo']]);
  });
});

describe('unknownPlace', () => {
  it.each([
    ['time in Atlantis', 'Atlantis'],
    ['What time is it in Springfield?', 'Springfield'],
    ['Wie spät ist es in Gondor?', 'Gondor'],
    ["l'heure à Narnia", 'Narnia'],
    ['what time is it in the Shire', 'the Shire'],
  ])('%j asks the time of %j, a place it does not know', (text, place) => {
    expect(unknownPlace(text)).toBe(place);
  });

  it.each(['time in Tokyo', 'time in LA', 'what time is it in my browser?', 'What time is it in my time zone?', 'current time', 'the time in the browser', 'deliver A-1003 in 3 days', 'Hello'])(
    '%j names no unknown place',
    (text) => {
      expect(unknownPlace(text)).toBeUndefined();
    },
  );
});

describe('zonedCountry', () => {
  it('reads a place alone as the place asked about only when it goes on from a question of the time', () => {
    expect(unknownPlace('and in the USA?')).toBeUndefined();
    expect(unknownPlace('and in the USA?', true)).toBe('the USA');
    expect(unknownPlace('what about in Atlantis?', true)).toBe('Atlantis');
    expect(unknownPlace('and in total?', true)).toBeUndefined();
  });

  it('names a country of several time zones, as written, with cities of it; any other place is none', () => {
    expect(unknownPlace('time in the USA')).toBe('the USA');
    expect(zonedCountry('the USA')).toEqual({ country: 'The USA', cities: ['New York', 'Chicago', 'Denver', 'Los Angeles'] });
    expect(unknownPlace('what time is it in the US')).toBe('the US');
    expect(zonedCountry('the US')?.cities).toContain('Chicago');
    expect(zonedCountry('Kanada')).toEqual({ country: 'Kanada', cities: ['Toronto', 'Vancouver'] });
    expect(zonedCountry('Atlantis')).toBeUndefined();
    expect(unknownPlace('time in India')).toBeUndefined();
  });
});

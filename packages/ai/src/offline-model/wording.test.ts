import { describe, expect, it } from 'vitest';
import { detectLanguage, nounIn, WORDINGS } from './wording.ts';

describe('detectLanguage', () => {
  it.each([
    ['Wo ist Bestellung A-1002?', 'de'],
    ['Verschiebe A-1003 auf morgen', 'de'],
    ['Welche Bestellungen sind verspätet?', 'de'],
    ['Wie spät ist es in New York?', 'de'],
    ['Uhrzeit in München', 'de'],
    ['Berechne 3*7', 'de'],
    ['Was ist in meinem Warenkorb?', 'de'],
    ['Où en est ma commande A-1004 ?', 'fr'],
    ['Reporte la commande A-1003 à demain', 'fr'],
    ["Quelle heure est-il à Paris ?", 'fr'],
    ["l'heure à Genève", 'fr'],
    ['combien font 6 fois 7', 'fr'],
    ['Ajoute 2 pommes au panier', 'fr'],
    // English, a place or an id alone, and English beside a German place or word: English.
    ['Where is A-1002?', 'en'],
    ['time in München', 'en'],
    ['Tokio', 'en'],
    ['A1006', 'en'],
    ['', 'en'],
    ['🙂', 'en'],
    ['show me the Rechnung for A-1001 please', 'en'],
  ])('%j → %s', (text, language) => {
    expect(detectLanguage(text)).toBe(language);
  });
});

describe('the wordings', () => {
  it('say the same things in each language, with its own marker for a question that waits for a reply', () => {
    const keys = Object.keys(WORDINGS.en).sort();
    for (const wording of Object.values(WORDINGS)) expect(Object.keys(wording).sort()).toEqual(keys);
    for (const wording of Object.values(WORDINGS)) expect(wording.ask('update_delivery_date', 'x')).toContain(wording.askMarker);
    expect(nounIn(WORDINGS.de, 'order')).toBe('Bestellung');
    expect(nounIn(WORDINGS.de, 'toString')).toBe('toString');
    expect(nounIn(WORDINGS.en, 'order')).toBe('order');
  });
});

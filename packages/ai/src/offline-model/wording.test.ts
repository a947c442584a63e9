import { describe, expect, it } from 'vitest';
import { describeArgument } from './extract-arguments.ts';
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
    // English words that German or French spell the same mark nothing.
    ['tag A-1002', 'en'],
    ['AI delays', 'en'],
    ['leg 2', 'en'],
    ['font', 'en'],
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

  it('says what a question asks for in the language of the request, the tool\'s own description as written', () => {
    const schema = {
      type: 'object',
      properties: { order_id: { type: 'string' }, new_date: { type: 'string', format: 'date' }, constructor: { type: 'string', description: 'Why' } },
    };
    const said = (language: 'en' | 'de' | 'fr') => ['order_id', 'new_date', 'constructor'].map((name) => describeArgument(schema, name, WORDINGS[language].argument));
    expect(said('en')).toEqual(['the order id (for example #1234 or A-1001)', 'the new date (as YYYY-MM-DD)', 'the constructor (Why)']);
    expect(said('de')).toEqual(['die Bestellnummer (zum Beispiel #1234 oder A-1001)', 'das neue Datum (als JJJJ-MM-TT)', '„constructor“ (Why)']);
    expect(said('fr')).toEqual(['le numéro de commande (par exemple #1234 ou A-1001)', 'la nouvelle date (au format AAAA-MM-JJ)', '« constructor » (Why)']);
  });
});

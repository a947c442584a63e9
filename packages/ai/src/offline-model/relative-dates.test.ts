import { describe, expect, it } from 'vitest';
import { addDays, dayNextToAsked, readRelativeDates, unreadDay } from './relative-dates.ts';

// A Friday, late in the UTC day: "today" is the UTC date, as the demo's tools count it.
const NOW = new Date('2026-11-20T23:30:00Z');

describe('readRelativeDates', () => {
  it.each([
    ['postpone A-1003 to tomorrow', 'postpone A-1003 to 2026-11-21', 'tomorrow'],
    ['postpone A-1003 to tommorow', 'postpone A-1003 to 2026-11-21', 'tommorow'],
    ['the day after tomorrow', '2026-11-22', 'the day after tomorrow'],
    ['deliver A-1002 next Monday', 'deliver A-1002 2026-11-23', 'next Monday'],
    ['Move A-1003 to Friday', 'Move A-1003 to 2026-11-27', 'Friday'],
    ['in 3 days', '2026-11-23', 'in 3 days'],
    ['in two weeks', '2026-12-04', 'in two weeks'],
    ['next week', '2026-11-27', 'next week'],
    ['move A-1008 to the end of the month', 'move A-1008 to 2026-11-30', 'the end of the month'],
    ['Verschiebe A-1003 auf morgen', 'Verschiebe A-1003 auf 2026-11-21', 'morgen'],
    ['Liefere A-1002 nächsten Montag', 'Liefere A-1002 2026-11-23', 'nächsten Montag'],
    ['in 3 Tagen', '2026-11-23', 'in 3 Tagen'],
    ['Reporte la commande A-1003 à demain', 'Reporte la commande A-1003 à 2026-11-21', 'demain'],
    ['livrer lundi prochain', 'livrer 2026-11-23', 'lundi prochain'],
    ['à la fin du mois', '2026-11-30', 'à la fin du mois'],
    ['postpone A-1003 to yesterday', 'postpone A-1003 to 2026-11-19', 'yesterday'],
    ['the day before yesterday', '2026-11-18', 'the day before yesterday'],
    ['move A-1003 to last Friday', 'move A-1003 to 2026-11-13', 'last Friday'],
    ['last Monday', '2026-11-16', 'last Monday'],
    ['letzten Montag', '2026-11-16', 'letzten Montag'],
    ['vendredi dernier', '2026-11-13', 'vendredi dernier'],
    ['move A-1003 to next month', 'move A-1003 to 2026-12-20', 'next month'],
    ['nächsten Monat', '2026-12-20', 'nächsten Monat'],
    ['in 2 months', '2027-01-20', 'in 2 months'],
    ['at the end of next month', 'at 2026-12-31', 'the end of next month'],
    ['move A-1003 to the 1st of next month', 'move A-1003 to 2026-12-01', 'the 1st of next month'],
    ['on the 25th of this month', 'on 2026-11-25', 'the 25th of this month'],
  ])('%j → %j', (text, written, phrase) => {
    const read = readRelativeDates(text, NOW);
    expect(read.text).toBe(written);
    expect(read.dates.map((date) => date.phrase)).toEqual([phrase]);
    expect(read.today).toBe('2026-11-20');
  });

  it.each([
    ['Can you move A-1003 to Dec 24?', 'Can you move A-1003 to 2026-12-24?', 'Dec 24'],
    ['December 24th, 2027', '2027-12-24', 'December 24th, 2027'],
    ['deliver on the 5th of January', 'deliver on the 2027-01-05', '5th of January'],
    ['Verschiebe A-1003 auf den 24. Dezember', 'Verschiebe A-1003 auf den 2026-12-24', '24. Dezember'],
    ['move A-1003 to 24.12.2026', 'move A-1003 to 2026-12-24', '24.12.2026'],
    ['livrer le 1er décembre', 'livrer le 2026-12-01', '1er décembre'],
    ['am 3.1.', 'am 2027-01-03', '3.1.'],
  ])('reads a calendar day not written as ISO, a year left out as the next such day: %j', (text, written, phrase) => {
    const read = readRelativeDates(text, NOW);
    expect([read.text, read.dates.map((date) => date.phrase)]).toEqual([written, [phrase]]);
  });

  it('leaves what is no calendar day alone: 31 February, a decimal, a month with a year only', () => {
    for (const text of ['Feb 31', '1.5 mal 2.5', 'the May 2026 orders', 'May I ask about A-1002?']) {
      expect(readRelativeDates(text, NOW).dates, text).toEqual([]);
    }
  });

  it('leaves a decimal at the end of a sum alone, before a full stop: "2.5 * 4.12." is no 4 December', () => {
    for (const text of ['calculate 2.5 * 4.12.', 'what is 3 + 1.10.', 'what is 3 - 1.10.', 'what is 7 /2.12.', 'what is 2 × 4.12.']) {
      expect(readRelativeDates(text, NOW).text, text).toBe(text);
    }
    // A day in a sentence, or a range of two, still is one.
    expect(readRelativeDates('deliver A-1003 on 1.12.', NOW).text).toBe('deliver A-1003 on 2026-12-01');
    expect(readRelativeDates('closed 24.12. - 26.12.', NOW).text).toBe('closed 2026-12-24 - 2026-12-26');
  });

  it('reads a day with a slash after a word that names a day, month first unless it cannot be; a sum stays a sum', () => {
    expect(readRelativeDates('change the date of A-1003 to 12/24', NOW)).toMatchObject({
      text: 'change the date of A-1003 to 2026-12-24',
      dates: [{ phrase: '12/24', date: '2026-12-24' }],
    });
    expect(readRelativeDates('deliver A-1003 on 1/10/2027', NOW).text).toBe('deliver A-1003 on 2027-01-10');
    expect(readRelativeDates('move A-1003 to 24/12', NOW).text).toBe('move A-1003 to 2026-12-24');
    // A day already past this year is next year's; no month 13.
    expect(readRelativeDates('move A-1003 to 3/4', NOW).text).toBe('move A-1003 to 2027-03-04');
    for (const text of ['what is 12/24', 'calculate 1/10/2027', 'move A-1003 to 13/13', 'change it to 12/24 * 3', '3/4 of 200']) {
      expect(readRelativeDates(text, NOW).dates, text).toEqual([]);
    }
  });

  it('reads a day of the month named alone ("to the 3rd") as the next such day, today included, at the end of a clause', () => {
    expect(readRelativeDates('move A-1003 to the 3rd', NOW)).toMatchObject({ text: 'move A-1003 to 2026-12-03', dates: [{ phrase: 'the 3rd' }] });
    expect(readRelativeDates('deliver A-1003 on the 20th, please', NOW).text).toBe('deliver A-1003 on 2026-11-20, please');
    expect(readRelativeDates('deliver A-1003 by the 31st and email the customer', NOW).text).toBe('deliver A-1003 by 2026-12-31 and email the customer');
    expect(readRelativeDates('Verschiebe A-1003 auf den 3.', NOW).text).toBe('Verschiebe A-1003 auf 2026-12-03');
    for (const text of ['show the 3rd most delayed order', 'move it to the 3rd row', 'the 3rd', 'to the 32nd']) {
      expect(readRelativeDates(text, NOW).dates, text).toEqual([]);
    }
  });

  it('reads a day of this month already past as next month\'s, in words too, and as the reply to a question for a date', () => {
    const late = new Date('2026-11-24T12:00:00Z');
    for (const [text, phrase, date] of [
      ['move A-1004 to the 3rd', 'the 3rd', '2026-12-03'],
      ['move A-1004 to the third', 'the third', '2026-12-03'],
      ['move A-1004 to the 3rd of the month', 'the 3rd of the month', '2026-12-03'],
      // "of this month" too (a delivery is not moved into the past), this month's when it is still to come; in German and French.
      ['move A-1004 to the 3rd of this month', 'the 3rd of this month', '2026-12-03'],
      ['move A-1004 to the 30th of this month', 'the 30th of this month', '2026-11-30'],
      ['Verschiebe A-1004 auf den 3. dieses Monats', 'den 3. dieses Monats', '2026-12-03'],
      ['Verschiebe A-1004 auf den 3. nächsten Monats', 'den 3. nächsten Monats', '2026-12-03'],
      ['Reporte A-1004 au 3 de ce mois', '3 de ce mois', '2026-12-03'],
      ['Reporte A-1004 au 1er du mois prochain', '1er du mois prochain', '2026-12-01'],
      ['deliver A-1004 on the twenty-first', 'the twenty-first', '2026-12-21'],
      ['move A-1004 to the 30th', 'the 30th', '2026-11-30'],
      // The request, then the reply to "I still need the new date" on a line of its own.
      ['move A-1004\nthe 3rd', 'the 3rd', '2026-12-03'],
      ['Verschiebe A-1004\nden 3.', 'den 3.', '2026-12-03'],
    ] as const) {
      expect(readRelativeDates(text, late).dates, text).toEqual([{ phrase, date }]);
    }
    for (const text of ['the 3rd', 'show the third most delayed order', 'the first order', 'move it to the first row']) {
      expect(readRelativeDates(text, late).dates, text).toEqual([]);
    }
  });

  it('reads 29 February without a year as the next one, in the next leap year', () => {
    expect(readRelativeDates('deliver on 29 February', NOW).text).toBe('deliver on 2028-02-29');
    expect(readRelativeDates('deliver on Feb 29th', new Date('2028-01-10T10:00:00Z')).text).toBe('deliver on 2028-02-29');
    expect(readRelativeDates('deliver on 29.2.', new Date('2028-03-01T10:00:00Z')).text).toBe('deliver on 2032-02-29');
    expect(readRelativeDates('deliver on 29 February 2027', NOW).dates).toEqual([]);
  });

  it('reads a holiday as its next day (one that moves too), the day after or before it, in English, German and French', () => {
    const read = (text: string, now = NOW) => readRelativeDates(text, now).dates.map(({ phrase, date }) => [phrase, date]);
    expect(read('deliver A-1002 on christmas')).toEqual([['christmas', '2026-12-25']]);
    expect(read('move A-1002 to after new year')).toEqual([['after new year', '2027-01-02']]);
    expect(read("before New Year's Eve")).toEqual([["before New Year's Eve", '2026-12-30']]);
    expect(read('on Christmas Eve')).toEqual([['Christmas Eve', '2026-12-24']]);
    // Easter, Good Friday and Thanksgiving move: the computus and the fourth Thursday of November.
    expect(read('at Easter')).toEqual([['Easter', '2027-03-28']]);
    expect(read('Ostern 2028')).toEqual([['Ostern 2028', '2028-04-16']]);
    expect(read('good friday')).toEqual([['good friday', '2027-03-26']]);
    expect(read('on thanksgiving')).toEqual([['thanksgiving', '2026-11-26']]);
    expect(read('black friday')).toEqual([['black friday', '2026-11-27']]);
    expect(read('Verschiebe A-1003 auf Weihnachten')).toEqual([['Weihnachten', '2026-12-25']]);
    expect(read('nach Neujahr')).toEqual([['nach Neujahr', '2027-01-02']]);
    expect(read('Livrez après Noël')).toEqual([['après Noël', '2026-12-26']]);
    // This year's once it is past: next year's; today's is today.
    expect(read('on christmas', new Date('2026-12-26T08:00:00Z'))).toEqual([['christmas', '2027-12-25']]);
    expect(read('on halloween', new Date('2026-10-31T08:00:00Z'))).toEqual([['halloween', '2026-10-31']]);
    // A name is no holiday: "email Noel".
    expect(read('email Noel about A-1002')).toEqual([]);
    // Pentecost and Ascension move with Easter; Mother's and Father's Day by the custom of the language they are named in.
    expect(read('Pfingsten')).toEqual([['Pfingsten', '2027-05-16']]);
    expect(read('lundi de Pentecôte')).toEqual([['lundi de Pentecôte', '2027-05-17']]);
    expect(read('Christi Himmelfahrt')).toEqual([['Christi Himmelfahrt', '2027-05-06']]);
    expect(read("deliver A-1002 on Mother's Day")).toEqual([["Mother's Day", '2027-05-09']]);
    expect(read('Liefere A-1002 am Muttertag')).toEqual([['Muttertag', '2027-05-09']]);
    expect(read('on mothering sunday')).toEqual([['mothering sunday', '2027-03-07']]);
    expect(read('pour la fête des mères')).toEqual([['la fête des mères', '2027-05-30']]);
    // In France it is the first Sunday of June when Pentecost falls on the last of May (2020).
    expect(read('fête des mères 2020')).toEqual([['fête des mères 2020', '2020-06-07']]);
    expect(read("father's day")).toEqual([["father's day", '2027-06-20']]);
    expect(read('Vatertag')).toEqual([['Vatertag', '2027-05-06']]);
  });

  it('reads a weekday as the next one after today, a week on when it is today', () => {
    expect(readRelativeDates('Friday', NOW).text).toBe('2026-11-27');
    expect(readRelativeDates('Saturday', NOW).text).toBe('2026-11-21');
  });

  it('reads the end of the month in the month of today, whatever its length', () => {
    expect(readRelativeDates('end of the month', new Date('2028-02-03T10:00:00Z')).text).toBe('2028-02-29');
    expect(readRelativeDates('end of next month', new Date('2028-01-31T10:00:00Z')).text).toBe('2028-02-29');
  });

  it('reads "next month" as the same day then, or the last day of a month that has no such day, across a year', () => {
    expect(readRelativeDates('next month', new Date('2027-01-31T10:00:00Z')).text).toBe('2027-02-28');
    expect(readRelativeDates('next month', new Date('2026-12-15T10:00:00Z')).text).toBe('2027-01-15');
    expect(readRelativeDates('in 3 months', new Date('2026-11-30T10:00:00Z')).text).toBe('2027-02-28');
  });

  it('reads "last" and "previous" weekdays as the one before today, a week back when it is today', () => {
    expect(readRelativeDates('previous Saturday', NOW).text).toBe('2026-11-14');
    expect(readRelativeDates('last Thursday', NOW).text).toBe('2026-11-19');
  });

  it('reads a move by a number of days as a shift from a date the text does not give, not as a day', () => {
    for (const [text, days] of [
      ['move A-1006 by a week', 7],
      ['Move A-1006 by 3 days', 3],
      ['Verschiebe A-1006 um eine Woche', 7],
      ['décaler A-1006 de deux jours', 2],
      ['push A-1006 back 2 days', 2],
    ] as const) {
      const read = readRelativeDates(text, NOW);
      expect(read.shift?.days, text).toBe(days);
      expect(read.text, text).toBe(text);
    }
  });

  it('reads days added or taken off as a shift, an earlier one below zero, and says whether the words alone move a date', () => {
    for (const [text, phrase, days, moves] of [
      ['add 5 days to A-1003', 'add 5 days', 5, true],
      ['add another week to A-1003', 'add another week', 7, true],
      ['A-1003 two days earlier', 'two days earlier', -2, true],
      ['deliver A-1003 a week later', 'a week later', 7, true],
      ['give A-1003 2 more days', '2 more days', 2, true],
      ['take 2 days off A-1003', 'take 2 days off', -2, true],
      ['subtract 3 days from A-1003', 'subtract 3 days', -3, true],
      ['bring A-1003 forward by 2 days', 'forward by 2 days', -2, true],
      ['delay A-1003 by two weeks', 'by two weeks', 14, false],
      ['Verschiebe A-1003 um 2 Tage nach vorne', 'um 2 Tage', -2, false],
      ['A-1003 3 Tage später', '3 Tage später', 3, true],
      ['avance A-1003 de 2 jours', 'de 2 jours', -2, false],
      ['A-1003 deux jours plus tôt', 'deux jours plus tôt', -2, true],
      ['bring A-1002 forward a week', 'forward a week', -7, true],
      ["avance A-1002 d'une semaine", "d'une semaine", -7, false],
    ] as const) {
      const read = readRelativeDates(text, NOW);
      expect(read.shift, text).toEqual({ phrase, days, moves });
      expect([read.text, read.dates], text).toEqual([text, []]);
    }
    // How late orders are is no move: the words say by how much only.
    expect(readRelativeDates('orders delayed by 3 days', NOW).shift?.moves).toBe(false);
  });

  it('writes the date at the words\' own place after a capital dotted I, whose lower case is two characters', () => {
    expect(readRelativeDates('İzmir office: deliver A-1002 tomorrow', NOW).text).toBe('İzmir office: deliver A-1002 2026-11-21');
  });

  it('leaves words that name no day alone: "Guten Morgen", "today", an ISO date', () => {
    for (const text of ['Guten Morgen', 'what is the date today?', 'Move A-1003 to 2027-01-10', 'Which orders are delayed by more than 3 days?']) {
      const read = readRelativeDates(text, NOW);
      expect([read.text, read.dates, read.shift], text).toEqual([text, [], undefined]);
    }
  });

  it('reads no holiday of another calendar as this one\'s ("Chinese New Year" is no 1 January), and names a day it does not know', () => {
    for (const text of ['deliver A-1002 on Chinese New Year', 'move A-1003 until Orthodox Christmas']) expect(readRelativeDates(text, NOW).dates, text).toEqual([]);
    const unread: [string, string | undefined][] = [
      ['deliver A-1002 on Diwali', 'Diwali'],
      ['deliver A-1002 on Chinese New Year', 'Chinese New Year'],
      ['move A-1003 until labor day', 'labor day'],
      ['Liefere A-1002 am Schützenfest', 'Schützenfest'],
      ["Livre A-1002 pour l'Aïd", 'Aïd'],
      ['move A-1007 to Hanukkah', 'Hanukkah'],
      // Where it goes, who it is for, a carrier, an id, a day known (already a date): none.
      ['deliver A-1002 to Berlin', undefined],
      ['move the order for Grace Hopper', undefined],
      ['deliver A-1002 by DHL', undefined],
      ['Liefere A-1002 am Abend', undefined],
      ['Pick a delivery date before A-1003', undefined],
      ['deliver A-1002 on 2026-12-25', undefined],
    ];
    expect(unread.map(([text]) => [text, unreadDay(text)])).toEqual(unread);
  });

  it('reads the day next to one said before ("the day after", "la veille"), and not a day of its own', () => {
    expect(['the day after then', 'ok, the day before', 'am Tag danach', 'le lendemain', 'la veille alors', 'the day after tomorrow'].map((text) => dayNextToAsked(text)?.days)).toEqual([
      1, -1, 1, 1, -1, 1,
    ]);
    expect(readRelativeDates('the day after tomorrow', NOW).dates).toEqual([{ phrase: 'the day after tomorrow', date: '2026-11-22' }]);
  });

  it('adds calendar days across a month and a year', () => {
    expect(addDays('2026-12-28', 7)).toBe('2027-01-04');
  });
});

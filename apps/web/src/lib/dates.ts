/** Today in the browser's own time zone, as YYYY-MM-DD (what a date control holds). */
export function localToday(now: Date = new Date()): string {
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
}

/**
 * The date a date picker opens on: today, moved into the range the question allows (its first day when today is
 * before it, its last when today is after it), so the picker opens where a date can be chosen.
 */
export function initialDate(range: { readonly min: string | undefined; readonly max: string | undefined }, today: string): string {
  if (range.min !== undefined && range.min > today) return range.min;
  if (range.max !== undefined && range.max < today) return range.max;
  return today;
}

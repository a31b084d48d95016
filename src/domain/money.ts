// Amounts as people read them: `EUR 25.00` from integer cents.
export function money(cents: number, currency: string): string {
  return `${currency} ${(cents / 100).toFixed(2)}`;
}

/** How long a question has waited, in a phone's few words: "just now", "4 min", "1 h 5 min". */
export function ageText(receivedAt: number, now: number): string {
  const minutes = Math.floor(Math.max(0, now - receivedAt) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** How long a report or appeal has waited since `iso`, in words: "waiting 40 min", "waiting 3 h", "waiting 2 days". */
export function waiting(iso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - new Date(iso).getTime()) / 60_000));
  if (minutes < 60) return `waiting ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `waiting ${hours} h`;
  return `waiting ${Math.floor(hours / 24)} days`;
}

/**
 * Rate limits count in fixed windows aligned to the clock (an hour for requests, 15 minutes for
 * sign-in attempts by default). A test that crossed a window's end would get a fresh budget
 * halfway through, so seconds before an end it waits the end out.
 */
export async function clearOfWindowEnd(windowSeconds: number, marginMs = 15_000): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const untilEnd = windowMs - (Date.now() % windowMs);
  if (untilEnd < marginMs) await new Promise((resolve) => setTimeout(resolve, untilEnd + 50));
}

/** Wraps text in single quotes for a POSIX shell. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export interface CurlRequest {
  origin: string;
  path: string;
  body: unknown;
  /** Printed as is: a placeholder such as $PLUCK_API_KEY unless the user asked to reveal the secret. */
  credential: string;
  /** For binary answers: the file curl should write. */
  output?: string;
}

/** The curl command that makes the same request; the credential travels in the header, never the URL. */
export function curlCommand({ origin, path, body, credential, output }: CurlRequest): string {
  const auth = credential.startsWith('$') ? `"Authorization: Bearer ${credential}"` : shellQuote(`Authorization: Bearer ${credential}`);
  const lines = [
    `curl -sS ${shellQuote(origin + path)}`,
    `  -H ${auth}`,
    `  -H 'Content-Type: application/json'`,
    `  -d ${shellQuote(JSON.stringify(body))}`,
  ];
  if (output) lines.push(`  -o ${shellQuote(output)}`);
  return lines.join(' \\\n');
}

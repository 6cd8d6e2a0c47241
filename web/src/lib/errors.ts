/** What the API said about a failed call: its HTTP status and its message for people. */
export function errorStatus(error: unknown): number | undefined {
  const data = (error as { data?: { httpStatus?: number } } | null)?.data;
  return data?.httpStatus;
}

export function isNotFound(error: unknown): boolean {
  return errorStatus(error) === 404;
}

export function errorMessage(error: unknown): string | undefined {
  const status = errorStatus(error);
  if (status === undefined || status >= 500) return undefined;
  return (error as { message?: string }).message;
}

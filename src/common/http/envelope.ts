/** The V2 success envelope (spec §2.1). */
export interface V2Envelope<T> {
  success: true;
  data: T;
}

export function ok<T>(data: T): V2Envelope<T> {
  return { success: true, data };
}

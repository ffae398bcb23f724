/** `1`, `true` or `yes` (any case) → true; anything else set → false; unset stays unset. */
export const toBool = ({ value }: { value: unknown }) =>
  value === undefined ? undefined : ['1', 'true', 'yes'].includes(String(value).toLowerCase());

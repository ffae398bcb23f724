/**
 * Store-platform access tokens are sealed by the one data cipher (key ids, rotation):
 * see src/common/secrets/data-cipher.ts. This name stays for the platform code that uses it.
 */
export { DataCipher as TokenCipher } from '../../common/secrets/data-cipher';

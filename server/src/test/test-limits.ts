/**
 * Test and benchmark servers register many players from one address: per-address limits far
 * above any of their needs, so only the limit tests meet the real defaults.
 */
export const highLimitsEnv = {
  LIMIT_REGISTRATIONS_PER_HOUR: '1000000',
  LIMIT_FIELD_CHECKS_PER_MINUTE: '1000000',
  LIMIT_PICTURES_PER_MINUTE: '1000000',
  LIMIT_IMPORTS_PER_HOUR: '1000000',
  // Fuzz and race tests send thousands of calls from one account.
  LIMIT_CALLS_PER_10_SECONDS: '1000000',
} as const;

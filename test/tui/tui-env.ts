// Ink renders nothing but the last frame when it believes it runs in CI (is-in-ci reads CI,
// CONTINUOUS_INTEGRATION and CI_* once, when Ink is first imported). The frames are what these
// tests assert, so the variables go before Ink is imported: import this module first.

for (const key of Object.keys(process.env)) {
  if (key === 'CI' || key === 'CONTINUOUS_INTEGRATION' || key.startsWith('CI_')) delete process.env[key];
}

export const CLEARED = true;

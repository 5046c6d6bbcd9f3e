/** DI token of the built-in development identity provider: the instance, or null when a real provider is configured. */
export const BUILT_IN_PROVIDER = Symbol('BUILT_IN_PROVIDER');

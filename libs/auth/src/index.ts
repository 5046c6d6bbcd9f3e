// The auth context: sign-in (OpenID Connect), server-side sessions, the allow-list and the user profile.
// Its public surface (module, ports) is exported from here as it is built.
export {};

/**
 * Where the sandbox answers by default, the same for the CLI and the extension, so that a copied curl,
 * a saved request or a bookmark keeps working after a restart.
 */

/**
 * Default port of the sandbox (CLI `--port`, setting `multiposting.sandbox.port`). Below the ephemeral
 * ranges of Linux (32768+) and Windows (49152+), so outgoing connections never take it, and not a
 * port that development servers or databases use by default.
 */
export const DEFAULT_SANDBOX_PORT = 24817;

/**
 * Default XML namespace of the sandbox: fixed, whatever the host and port (production also uses one
 * fixed namespace on every host). `.test` is reserved (RFC 6761), so it never names a real server.
 */
export const SANDBOX_NAMESPACE = 'http://sandbox.multiposting.test/';

/** The `namespace` value that selects the spec's rule instead: the base URL followed by a slash. */
export const NAMESPACE_FROM_BASE_URL = 'base-url';

/** One-time login tokens of GetLoginURL (only their hash is stored). */
import { hashSecret } from './secrets';
import type { StatementCache } from './statements';

export class LoginTokenRepository {
	constructor(
		private readonly sql: StatementCache,
		private readonly transaction: <T>(work: () => T) => T,
	) {}

	/** Stores a one-time login token (only its hash). */
	create(
		token: string,
		userId: number,
		returnUrl: string | null,
		redirectDomain: string | null,
		expiresAt: string,
	): void {
		this.sql.run(
			'INSERT INTO login_token (token_hash, user_id, return_url, redirect_domain, expires_at) VALUES (?, ?, ?, ?, ?)',
			[hashSecret(token), userId, returnUrl, redirectDomain, expiresAt],
		);
	}

	/**
	 * Uses a login token once: returns its user and return URL when the token exists, is unused and has
	 * not expired at `now`; marks it used. Otherwise undefined.
	 */
	consume(token: string, now: string): { userId: number; returnUrl: string | null } | undefined {
		return this.transaction(() => {
			const row = this.sql.one<{ userId: number; returnUrl: string | null }>(
				'SELECT user_id AS userId, return_url AS returnUrl FROM login_token WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?',
				[hashSecret(token), now],
			);
			if (row) this.sql.run('UPDATE login_token SET used_at = ? WHERE token_hash = ?', [now, hashSecret(token)]);
			return row;
		});
	}
}

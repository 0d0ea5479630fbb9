/**
 * Organisations, API keys and users: the identity every request starts from. Found lookups are kept,
 * frozen, until anything writes organisation, api_key or app_user (`StatementCache.watchedWrites`),
 * seeding and clearing included, so a revoked key or a changed password is seen by the next request.
 */
import { placeholders } from './database';
import { asNumericId } from './queryParts';
import { hashSecret } from './secrets';
import type { StatementCache } from './statements';
import type { OrganisationRow, UserRow } from './types';

/** Tables behind the identity lookups: any write naming one of them forgets every kept lookup. */
export const IDENTITY_TABLES = /\b(?:organisation|api_key|app_user)\b/i;
/** Most identity lookups kept at once. */
const IDENTITY_CACHE_LIMIT = 4096;

const ORGANISATION_COLUMNS = 'id, identifier, name, parent_id AS parentId, parsing_enabled AS parsingEnabled';

const USER_COLUMNS = `u.id, u.organisation_id AS organisationId, u.identifier, u.username, u.password_hash AS passwordHash,
	u.role_id AS roleId, u.active, u.first_name AS firstName, u.last_name AS lastName, u.email,
	u.applications_email AS applicationsEmail, u.phone, u.mobile, u.fax, u.position, u.culture_id AS cultureId, u.website,
	u.address1, u.address2, u.address3, u.state, u.country, u.post_code AS postCode, u.notification_flags AS notificationFlags`;

export class AccountRepository {
	/** Kept lookups of keys, users and subtrees, valid while `sql.watchedWrites` equals `identityWrites`. */
	private readonly identity = new Map<string, unknown>();
	private identityWrites = 0;

	constructor(private readonly sql: StatementCache) {}

	/** Forgets every kept lookup (seeding, clearing, closing). */
	forget(): void {
		this.identity.clear();
	}

	organisationById(id: number): OrganisationRow | undefined {
		return this.sql.one<OrganisationRow>(`SELECT ${ORGANISATION_COLUMNS} FROM organisation WHERE id = ?`, [id]);
	}

	/** An organisation by numeric id or string identifier. */
	findOrganisation(idOrIdentifier: string): OrganisationRow | undefined {
		const id = asNumericId(idOrIdentifier);
		return this.sql.one<OrganisationRow>(
			`SELECT ${ORGANISATION_COLUMNS} FROM organisation WHERE id = ? OR identifier = ? ORDER BY id = ? DESC LIMIT 1`,
			[id ?? -1, idOrIdentifier, id ?? -1],
		);
	}

	/** The organisation and all organisations below it. */
	subtreeIds(rootId: number): readonly number[] {
		return this.remember(`tree:${rootId}`, () =>
			this.sql
				.all<{ id: number }>(
					`WITH RECURSIVE tree(id) AS (SELECT id FROM organisation WHERE id = ? UNION ALL SELECT o.id FROM organisation o JOIN tree t ON o.parent_id = t.id)
				SELECT id FROM tree ORDER BY id`,
					[rootId],
				)
				.map((row) => row.id),
		) as readonly number[];
	}

	/** The organisation and its ancestors, nearest first. */
	ancestorIds(organisationId: number): number[] {
		return this.sql
			.all<{ id: number }>(
				`WITH RECURSIVE up(id, parent_id, depth) AS (SELECT id, parent_id, 0 FROM organisation WHERE id = ?
				UNION ALL SELECT o.id, o.parent_id, up.depth + 1 FROM organisation o JOIN up ON o.id = up.parent_id)
			SELECT id FROM up ORDER BY depth`,
				[organisationId],
			)
			.map((row) => row.id);
	}

	/** The organisation an API key belongs to, or undefined for an unknown key. */
	organisationForApiKey(apiKey: string): OrganisationRow | undefined {
		// Kept by the key's hash: the cache holds no secret.
		const keyHash = hashSecret(apiKey);
		return this.remember(`key:${keyHash}`, () =>
			this.sql.one<OrganisationRow>(
				`SELECT o.id, o.identifier, o.name, o.parent_id AS parentId, o.parsing_enabled AS parsingEnabled
				FROM api_key k JOIN organisation o ON o.id = k.organisation_id WHERE k.key_hash = ?`,
				[keyHash],
			),
		);
	}

	findUserByUsername(username: string): UserRow | undefined {
		return this.remember(`user:${username}`, () =>
			this.sql.one<UserRow>(`SELECT ${USER_COLUMNS} FROM app_user u WHERE u.username = ?`, [username]),
		);
	}

	/** A user by numeric UserID or string UserIdentifier. */
	findUser(idOrIdentifier: string): UserRow | undefined {
		const id = asNumericId(idOrIdentifier);
		return this.sql.one<UserRow>(
			`SELECT ${USER_COLUMNS} FROM app_user u WHERE u.id = ? OR u.identifier = ? ORDER BY u.id = ? DESC LIMIT 1`,
			[id ?? -1, idOrIdentifier, id ?? -1],
		);
	}

	userById(id: number): UserRow | undefined {
		return this.sql.one<UserRow>(`SELECT ${USER_COLUMNS} FROM app_user u WHERE u.id = ?`, [id]);
	}

	/** Active users of these organisations, by id. */
	activeUsersIn(organisationIds: readonly number[]): UserRow[] {
		return this.sql.all<UserRow>(
			`SELECT ${USER_COLUMNS} FROM app_user u WHERE u.active = 1 AND u.organisation_id IN (${placeholders(organisationIds.length)}) ORDER BY u.id`,
			[...organisationIds],
		);
	}

	/** A found identity lookup, kept frozen until the next write of its tables; misses are not kept. */
	private remember<T extends object>(key: string, load: () => T | undefined): T | undefined {
		if (this.identityWrites !== this.sql.watchedWrites) {
			this.identity.clear();
			this.identityWrites = this.sql.watchedWrites;
		}
		const kept = this.identity.get(key) as T | undefined;
		if (kept !== undefined) return kept;
		const value = load();
		if (value === undefined) return undefined;
		// Bounded against a caller cycling through many usernames; refilling is cheap.
		if (this.identity.size >= IDENTITY_CACHE_LIMIT) this.identity.clear();
		this.identity.set(key, Object.freeze(value));
		return value;
	}
}

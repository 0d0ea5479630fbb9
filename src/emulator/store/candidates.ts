/** Candidates (per organisation, found by email) and their tags. */
import { placeholders } from './database';
import type { StatementCache } from './statements';
import type { CandidateRow } from './types';

export class CandidateRepository {
	constructor(private readonly sql: StatementCache) {}

	/** Candidates with this email in these organisations, lowest id first. */
	byEmail(email: string, organisationIds: readonly number[]): CandidateRow[] {
		return this.sql.all<CandidateRow>(
			`SELECT id, organisation_id AS organisationId, email, first_name AS firstName, last_name AS lastName FROM candidate
			WHERE email = ? AND organisation_id IN (${placeholders(organisationIds.length)}) ORDER BY id`,
			[email, ...organisationIds],
		);
	}

	/** Inserts a candidate (or finds the one with this email in the organisation) and returns its id. */
	upsert(candidate: {
		organisationId: number;
		email: string;
		firstName: string;
		lastName: string;
		mobilePhone: string;
		address: string;
	}): number {
		const existing = this.sql.one<{ id: number }>(
			'SELECT id FROM candidate WHERE organisation_id = ? AND email = ?',
			[candidate.organisationId, candidate.email],
		);
		if (existing) return existing.id;
		return Number(
			this.sql.run(
				'INSERT INTO candidate (organisation_id, email, first_name, last_name, mobile_phone, address) VALUES (?, ?, ?, ?, ?, ?)',
				[
					candidate.organisationId,
					candidate.email,
					candidate.firstName,
					candidate.lastName,
					candidate.mobilePhone,
					candidate.address,
				],
			).lastInsertRowid,
		);
	}

	/** Adds a free tag (kept once per candidate). */
	addTag(candidateId: number, tag: string, at: string): void {
		this.sql.run(
			"INSERT OR IGNORE INTO candidate_tag (candidate_id, kind, tag, created_at) VALUES (?, 'tag', ?, ?)",
			[candidateId, tag, at],
		);
	}

	/** Sets the candidate's partner tag, replacing the previous one. */
	setPartnerTag(candidateId: number, tag: string, at: string): void {
		this.sql.run("DELETE FROM candidate_tag WHERE candidate_id = ? AND kind = 'partner'", [candidateId]);
		this.sql.run("INSERT INTO candidate_tag (candidate_id, kind, tag, created_at) VALUES (?, 'partner', ?, ?)", [
			candidateId,
			tag,
			at,
		]);
	}

	tags(candidateId: number): { kind: string; tag: string }[] {
		return this.sql.all<{ kind: string; tag: string }>(
			'SELECT kind, tag FROM candidate_tag WHERE candidate_id = ? ORDER BY kind, tag',
			[candidateId],
		);
	}
}

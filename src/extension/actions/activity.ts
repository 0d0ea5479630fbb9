/**
 * What the user did to each application in this session (notes, tags, scores). The service cannot
 * read notes or tags back, so the application panel shows them from here; kept in memory only.
 */

export type ActivityKind = 'score' | 'progress' | 'note' | 'tag' | 'partnerTag';

export interface ActivityEntry {
	kind: ActivityKind;
	/** What was done, in words ("Note “Phone screen”: Spoke for 20 minutes"). */
	text: string;
	at: Date;
}

/** Entries kept per application; older ones drop off. */
const PER_APPLICATION = 50;

export class ActivityLog {
	private readonly entries = new Map<number, ActivityEntry[]>();

	constructor(private readonly now: () => Date = () => new Date()) {}

	record(advertCandidateId: number, kind: ActivityKind, text: string): void {
		const list = this.entries.get(advertCandidateId) ?? [];
		list.push({ kind, text, at: this.now() });
		if (list.length > PER_APPLICATION) list.splice(0, list.length - PER_APPLICATION);
		this.entries.set(advertCandidateId, list);
	}

	/** Newest first. */
	of(advertCandidateId: number): ActivityEntry[] {
		return [...(this.entries.get(advertCandidateId) ?? [])].reverse();
	}

	/** The value of the latest entry of a kind (e.g. the partner tag set last), if any. */
	latest(advertCandidateId: number, kind: ActivityKind): ActivityEntry | undefined {
		return this.of(advertCandidateId).find((e) => e.kind === kind);
	}

	clear(): void {
		this.entries.clear();
	}
}

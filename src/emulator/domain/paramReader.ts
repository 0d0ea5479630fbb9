/**
 * Handlers read their parameters through a reader typed by their operation: the names come from the
 * catalogue, so a misspelt name does not compile. The reader is a thin typed layer over the parsing
 * functions of params.ts; it adds no rules of its own.
 */
import type { AnyParams, OperationName, ParamNameOf, ParamValue } from '../../protocol/catalogue';
import * as parse from './params';

/**
 * Reads decoded parameters named N. Members are function-typed properties (not methods), so a reader
 * of some names is accepted where a reader of fewer is asked for, and never the other way round.
 */
export interface ParamReader<N extends string> {
	/** The decoded parameters, for checks over any name (the catalogue's rules). */
	readonly all: AnyParams;
	/** The value exactly as decoded (untrimmed), e.g. a password. */
	readonly value: (name: N) => ParamValue | undefined;
	readonly isGiven: (name: N) => boolean;
	readonly text: (name: N) => string | undefined;
	readonly requiredText: (name: N, what?: string) => string;
	readonly integer: (name: N, bounds?: { min?: number; max?: number }) => number | undefined;
	readonly id: (name: N) => number | undefined;
	readonly requiredId: (name: N) => number;
	readonly flag: (name: N, fallback?: boolean) => boolean;
	readonly includeFlag: (name: N) => boolean;
	readonly csv: (name: N) => string[] | undefined;
	readonly numericCsv: (name: N) => number[] | undefined;
	readonly dateTime: (name: N) => string | undefined;
	readonly httpUrl: (name: N) => string | undefined;
}

/** The reader of one operation's parameters. */
export type OperationParams<O extends OperationName> = ParamReader<ParamNameOf<O>>;

/** A reader over decoded parameters; assign it to the ParamReader of the names it may read. */
export function readParams(params: AnyParams): ParamReader<string> {
	return new Reader(params);
}

/** Prototype methods rather than arrow fields: one reader per request, no closures. */
class Reader implements ParamReader<string> {
	constructor(readonly all: AnyParams) {}
	value(name: string): ParamValue | undefined {
		return this.all[name];
	}
	isGiven(name: string): boolean {
		return parse.isGiven(this.all, name);
	}
	text(name: string): string | undefined {
		return parse.text(this.all, name);
	}
	requiredText(name: string, what?: string): string {
		return parse.requiredText(this.all, name, what);
	}
	integer(name: string, bounds?: { min?: number; max?: number }): number | undefined {
		return parse.integer(this.all, name, bounds);
	}
	id(name: string): number | undefined {
		return parse.id(this.all, name);
	}
	requiredId(name: string): number {
		return parse.requiredId(this.all, name);
	}
	flag(name: string, fallback?: boolean): boolean {
		return parse.flag(this.all, name, fallback);
	}
	includeFlag(name: string): boolean {
		return parse.includeFlag(this.all, name);
	}
	csv(name: string): string[] | undefined {
		return parse.csv(this.all, name);
	}
	numericCsv(name: string): number[] | undefined {
		return parse.numericCsv(this.all, name);
	}
	dateTime(name: string): string | undefined {
		return parse.dateTime(this.all, name);
	}
	httpUrl(name: string): string | undefined {
		return parse.httpUrl(this.all, name);
	}
}

/** Paging of a paged search: CurrentPage is 1-based (0 is read as 1); RowsPerPage 1..max. */
export function pageOf(
	params: ParamReader<'CurrentPage' | 'RowsPerPage'>,
	maxPageSize: number,
): { page: number; rowsPerPage: number; offset: number } {
	return parse.paging(params.all, maxPageSize);
}

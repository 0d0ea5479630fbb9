/**
 * Result paths (`result.Applications[0].Score`) against the catalogue's record model: their type,
 * for completion, hover and diagnostics, and their values in a decoded result. Pure.
 */
import { OPERATIONS, RECORDS, type FieldSpec, type OperationName, type ScalarType } from '../catalogue';
import type { Normalised } from '../compare';
import type { PathSegment } from './expressions';
import { closestNames } from './issues';

/** The type at a point of a result path. */
export type PathType =
	| { kind: 'record'; record: string }
	| { kind: 'list'; item: PathType }
	| { kind: 'scalar'; scalar: ScalarType | 'length' };

/** The pseudo-field giving the number of items of a list or characters of a text. */
export const LENGTH_FIELD = 'length';

/** The type of an operation's result. */
export function resultType(operation: OperationName): PathType {
	const result = OPERATIONS[operation].result;
	const record: PathType = { kind: 'record', record: result.record };
	return result.kind === 'list' ? { kind: 'list', item: record } : record;
}

/** The type of a record field. */
export function fieldType(field: FieldSpec): PathType {
	const type = field.type;
	if (typeof type === 'string') return { kind: 'scalar', scalar: type };
	if ('record' in type) return { kind: 'record', record: type.record };
	if ('list' in type) return { kind: 'list', item: { kind: 'record', record: type.list } };
	return { kind: 'list', item: { kind: 'scalar', scalar: type.scalarList } };
}

/** The fields of a record type (empty for anything else). */
export function fieldsOf(type: PathType): readonly FieldSpec[] {
	if (type.kind !== 'record') return [];
	return (RECORDS as Record<string, { fields: readonly FieldSpec[] }>)[type.record]?.fields ?? [];
}

/** A short name of a type, e.g. `APIApplication`, `list of APIApplication`, `int`. */
export function describeType(type: PathType): string {
	if (type.kind === 'record') return type.record;
	if (type.kind === 'list') return `list of ${describeType(type.item)}`;
	return type.scalar === 'length' ? 'int' : type.scalar;
}

/** Where a path stops making sense, and why. */
export interface PathProblem {
	/** Index of the segment at fault. */
	segment: number;
	message: string;
	/** Field names to offer instead. */
	suggestions: string[];
}

/** Follows a path through the record model: the type it ends at, or the first problem. */
export function typeOfPath(start: PathType, path: readonly PathSegment[]): { type?: PathType; problem?: PathProblem } {
	let type = start;
	for (let index = 0; index < path.length; index += 1) {
		const segment = path[index];
		if ('field' in segment) {
			if (segment.field === LENGTH_FIELD && (type.kind === 'list' || isText(type))) {
				type = { kind: 'scalar', scalar: 'length' };
				continue;
			}
			if (type.kind === 'list') {
				return {
					problem: {
						segment: index,
						message: `${describeType(type)} has items, not fields: use [0], [*] or .length before .${segment.field}.`,
						suggestions: [],
					},
				};
			}
			const fields = fieldsOf(type);
			const field = fields.find((candidate) => candidate.name === segment.field);
			if (!field) {
				const names = fields.map((candidate) => candidate.name);
				return {
					problem: {
						segment: index,
						message:
							type.kind === 'record'
								? `${type.record} has no field ${segment.field}.`
								: `${describeType(type)} has no fields.`,
						suggestions: closestNames(segment.field, names),
					},
				};
			}
			type = fieldType(field);
		} else if (type.kind === 'list') {
			type = type.item;
		} else {
			return {
				problem: { segment: index, message: `${describeType(type)} is not a list.`, suggestions: [] },
			};
		}
	}
	return { type };
}

function isText(type: PathType): boolean {
	return type.kind === 'scalar' && (type.scalar === 'string' || type.scalar === 'dateTime');
}

/**
 * The values a path selects in a normalised result: one value, or one per item after `[*]`
 * (`every` is then true). Missing steps give undefined.
 */
export function valuesAtPath(
	root: Normalised | undefined,
	path: readonly PathSegment[],
): { values: (Normalised | undefined)[]; every: boolean } {
	let current: (Normalised | undefined)[] = [root];
	let every = false;
	for (const segment of path) {
		const next: (Normalised | undefined)[] = [];
		for (const value of current) {
			if ('every' in segment) {
				every = true;
				if (Array.isArray(value)) next.push(...value);
			} else if ('index' in segment) {
				next.push(Array.isArray(value) ? value[segment.index] : undefined);
			} else if (segment.field === LENGTH_FIELD && (Array.isArray(value) || typeof value === 'string')) {
				next.push(value.length);
			} else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
				next.push(
					Object.prototype.hasOwnProperty.call(value, segment.field) ? value[segment.field] : undefined,
				);
			} else {
				next.push(undefined);
			}
		}
		current = next;
	}
	return { values: current, every };
}

/** Reads the argument of a command: a tree node, a reference from a panel, or nothing. */
import type { AdvertRef, ApplicationRef } from '../services';
import type { TreeNode } from '../tree/accountModel';

function isTreeNode(value: unknown): value is TreeNode {
	return typeof value === 'object' && value !== null && 'descriptor' in value && 'data' in value;
}

export function applicationRefOf(arg: unknown): ApplicationRef | undefined {
	if (isTreeNode(arg)) {
		if (arg.data.kind !== 'application') return undefined;
		const a = arg.data.application;
		if (a.AdvertID === undefined || a.AdvertCandidateID === undefined) return undefined;
		return {
			advertId: a.AdvertID,
			advertCandidateId: a.AdvertCandidateID,
			candidateEmail: a.EmailAddress,
			firstName: a.FirstName,
			lastName: a.LastName,
		};
	}
	if (
		typeof arg === 'object' &&
		arg !== null &&
		typeof (arg as ApplicationRef).advertCandidateId === 'number' &&
		typeof (arg as ApplicationRef).advertId === 'number'
	) {
		return arg as ApplicationRef;
	}
	return undefined;
}

export function advertRefOf(arg: unknown): AdvertRef | undefined {
	if (isTreeNode(arg)) {
		if (arg.data.kind === 'advert' && arg.data.advert.AdvertID !== undefined) {
			const a = arg.data.advert;
			return { advertId: a.AdvertID!, advertIdentifier: a.AdvertIdentifier, advertReference: a.AdvertReference };
		}
		if (arg.data.kind === 'application' && arg.data.application.AdvertID !== undefined) {
			return { advertId: arg.data.application.AdvertID };
		}
		return undefined;
	}
	if (typeof arg === 'object' && arg !== null && typeof (arg as AdvertRef).advertId === 'number') {
		return arg as AdvertRef;
	}
	return undefined;
}

export function treeNodeOf(arg: unknown): TreeNode | undefined {
	return isTreeNode(arg) ? arg : undefined;
}

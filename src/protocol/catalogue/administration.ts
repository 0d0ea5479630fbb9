/** The 4 operations of the administration endpoint. */
import * as p from './params';
import type { OperationDeclaration } from './transportNames';

export const ADMINISTRATION_OPERATIONS = {
	UserList: {
		endpoint: 'administration',
		doc: 'Users visible to an administrator, or one active user when sUserIdentifier is given.',
		params: [...p.login, p.sStartOrganisation, p.sUserIdentifier],
		result: { kind: 'list', record: 'CUser' },
	},
	FeedQuotaList: {
		endpoint: 'administration',
		doc: 'Feed credentials and quota of an organisation or user.',
		params: [...p.login, p.sOrganisationIdentifier, p.sUserIdentifier, p.DestinationsAsCSV],
		result: { kind: 'list', record: 'CFeedQuotaWithFeedList' },
	},
	GetWeeksToAdvertise: {
		endpoint: 'administration',
		doc: 'Valid schedule triggers (weeks to advertise).',
		params: [p.sCultureID, p.sAPIKey],
		result: { kind: 'list', record: 'GetValue' },
	},
	FeedList: {
		endpoint: 'administration',
		doc: 'Feeds configured for an organisation or user.',
		params: [
			...p.login,
			p.sOrganisationIdentifier,
			p.sUserIdentifier,
			{ name: 'sFeedNameSearch', type: 'string', doc: 'Part of a feed name.' },
		],
		result: { kind: 'list', record: 'CFeed' },
	},
} as const satisfies Record<string, OperationDeclaration>;

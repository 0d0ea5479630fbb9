/** Lookup operations: currencies, weeks to advertise and job title suggestions. */
import type { GetValue } from '../../../protocol/catalogue';
import type { Store } from '../../store/store';
import type { KeyScope } from '../access';
import type { ParamReader } from '../paramReader';
import { guarded, type HandlerDeps, type HandlersFor } from './handler';

const JOB_TITLE_LIMIT = 25;

export type LookupOperation = 'GetCurrency' | 'GetWeeksToAdvertise' | 'QueryJobTitle';

export function lookupHandlers({ store }: HandlerDeps): HandlersFor<LookupOperation> {
	return {
		GetCurrency: guarded(store, 'GetCurrency', (params, _ctx, key) =>
			lookupRecords(store, 'currency', params, key),
		),

		GetWeeksToAdvertise: guarded(store, 'GetWeeksToAdvertise', (params, _ctx, key) =>
			lookupRecords(store, 'weeks', params, key),
		),

		QueryJobTitle: guarded(store, 'QueryJobTitle', (params) => {
			const query = params.requiredText('q', 'at least 2 characters');
			const culture = params.text('sCultureID') ?? 'en-GB';
			return store.lookups.jobTitles(query, params.text('Industry'), JOB_TITLE_LIMIT).map((row) => ({
				CultureID: culture,
				Description: row.description,
				Industry: row.industry,
				JobTitle: row.title,
				Score: row.popularity,
			}));
		}),
	};
}

function lookupRecords(
	store: Store,
	list: 'currency' | 'weeks',
	params: ParamReader<'sCultureID'>,
	key: KeyScope,
): GetValue[] {
	const culture = params.text('sCultureID') ?? 'en-GB';
	return store.lookups.values(list).map((row) => ({
		CultureID: culture,
		Description: row.description,
		FieldID: row.fieldId,
		OrganisationID: key.organisation.id,
		SortOrder: row.sortOrder,
		Value: row.value,
	}));
}

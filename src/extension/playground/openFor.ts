/**
 * "Open in Playground" on an advert or an application of the tree: the playground form that reads it
 * (GetApplicationsPaged for the advert's applications, or for exactly that application), with the
 * credentials as placeholders. Pure.
 */
import { newForm } from '../../shared/playgroundForms';
import type { PlaygroundForm } from '../../shared/playgroundMessages';
import { toAdvertRef, toApplicationRef } from '../panels/models';
import { applicationParams } from '../reads/queries';
import type { AdvertRef, ApplicationRef } from '../services';

/** Rows per page of the advert's applications (the catalogue's range is 1–500). */
export const ADVERT_APPLICATIONS_PAGE = 50;

/** GetApplicationsPaged for the applications of an advert, first page. */
export function formForAdvert(ref: AdvertRef): PlaygroundForm {
	const form = newForm('GetApplicationsPaged');
	return {
		...form,
		params: {
			...form.params,
			sAdvertID: String(ref.advertId),
			CurrentPage: '1',
			RowsPerPage: String(ADVERT_APPLICATIONS_PAGE),
		},
	};
}

/** GetApplicationsPaged for exactly one application (the query of its details panel). */
export function formForApplication(ref: ApplicationRef): PlaygroundForm {
	const form = newForm('GetApplicationsPaged');
	const query = applicationParams(ref);
	return {
		...form,
		params: {
			...form.params,
			AdvertCandidateIDAsCSV: query.AdvertCandidateIDAsCSV,
			sAdvertID: String(ref.advertId),
			CurrentPage: String(query.CurrentPage),
			RowsPerPage: String(query.RowsPerPage),
		},
	};
}

/** The form for a tree node or ref: an application's when it is one, else an advert's; undefined otherwise. */
export function formForNode(node: unknown): PlaygroundForm | undefined {
	const application = toApplicationRef(node);
	if (application) return formForApplication(application);
	const advert = toAdvertRef(node);
	return advert ? formForAdvert(advert) : undefined;
}

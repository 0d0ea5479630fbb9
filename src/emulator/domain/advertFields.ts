/** The advert fields of AddAdvert and the small location lookup that fills coordinates. */
import { VALUE_SETS, type ValueSet } from '../../protocol/catalogue';
import { matchChoice } from '../../protocol/rules';
import type { AdvertFields } from '../store/types';
import type { OperationParams, ParamReader } from './paramReader';

type AddAdvertParams = OperationParams<'AddAdvert'>;

/** Cities the location lookup of AddAdvert knows (latitude, longitude). */
export const KNOWN_LOCATIONS: Readonly<Record<string, readonly [string, string]>> = {
	london: ['51.5074', '-0.1278'],
	manchester: ['53.4808', '-2.2426'],
	leeds: ['53.8008', '-1.5491'],
	bristol: ['51.4545', '-2.5879'],
	birmingham: ['52.4862', '-1.8904'],
	glasgow: ['55.8642', '-4.2518'],
	edinburgh: ['55.9533', '-3.1883'],
	liverpool: ['53.4084', '-2.9916'],
	cardiff: ['51.4816', '-3.1791'],
	belfast: ['54.5973', '-5.9301'],
	newcastle: ['54.9783', '-1.6178'],
	sheffield: ['53.3811', '-1.4701'],
	nottingham: ['52.9548', '-1.1581'],
	cambridge: ['52.2053', '0.1218'],
	oxford: ['51.7520', '-1.2577'],
	berlin: ['52.5200', '13.4050'],
	munich: ['48.1351', '11.5820'],
	dublin: ['53.3498', '-6.2603'],
	remote: ['', ''],
};

/**
 * The value of a closed set as the catalogue spells it (the rules, checked before dispatch, accept any
 * letter case and refuse values outside the set).
 */
function choiceOf<N extends string>(params: ParamReader<N>, name: NoInfer<N>, set: ValueSet): string | undefined {
	const value = params.text(name);
	return value === undefined ? undefined : (matchChoice(set, value, false) ?? value);
}

/**
 * Collects the advert fields of AddAdvert. Formats, value sets and the salary order are the
 * catalogue's rules, which the pipeline checks before dispatch (src/protocol/rules).
 */
export function advertFields(params: AddAdvertParams): AdvertFields {
	const iframe = params.text('sIframe') === undefined ? undefined : params.flag('sIframe') ? 1 : 0;
	return {
		identifier: params.text('sAdvertIdentifier'),
		reference: params.text('sAdvertReference'),
		title: params.text('sJobTitle'),
		jobType: choiceOf(params, 'sJobType', VALUE_SETS.jobType),
		jobHours: choiceOf(params, 'sJobHours', VALUE_SETS.jobHours),
		salaryPer: choiceOf(params, 'sSalaryPer', VALUE_SETS.salaryPer),
		primaryLocation: params.text('sPrimaryLocation'),
		industry: params.text('sIndustry'),
		salaryFrom: params.text('sSalaryFrom'),
		salaryTo: params.text('sSalaryTo'),
		salaryCurrency: params.text('sSalaryCurrency')?.toUpperCase(),
		salaryBenefits: params.text('sSalaryBenefits'),
		contactName: params.text('sContactName'),
		contactEmail: params.text('sContactEmail'),
		jobDescription: params.text('sJobDescription'),
		applicationUrl: params.httpUrl('sApplicationURL'),
		callbackUrl: params.httpUrl('sApplicationCallbackURL'),
		scheduledPostAt: params.dateTime('sFuturePostDateTimeInUtc'),
		redirectDomain: params.text('sRedirectDomain'),
		statusId: params.integer('sAdvertStatusID'),
		iframe,
	};
}

export function lookupLocation(location: string | undefined): { coordinates?: [string, string]; log: string } {
	if (location === undefined) return { log: 'No sPrimaryLocation given; no location lookup.' };
	const known = KNOWN_LOCATIONS[location.trim().toLowerCase()];
	if (!known || known[0] === '') {
		return { log: `Location '${location}' was not found; latitude and longitude left empty.` };
	}
	return { coordinates: [known[0], known[1]], log: `Location '${location}' resolved to ${known[0]}, ${known[1]}.` };
}

/** The advert fields of AddAdvert, validated, and the small location lookup that fills coordinates. */
import { ADVERT_STATUS, VALUE_SETS } from '../../protocol/catalogue';
import { FaultError } from '../../protocol/faults';
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

function closedChoice<N extends string>(
	params: ParamReader<N>,
	name: NoInfer<N>,
	allowed: readonly string[],
): string | undefined {
	const value = params.text(name);
	if (value === undefined) return undefined;
	const match = allowed.find((choice) => choice.toLowerCase() === value.toLowerCase());
	if (!match) {
		throw FaultError.client('InvalidParameter', `${name} must be one of ${allowed.join(', ')}; got '${value}'.`);
	}
	return match;
}

function decimalText<N extends string>(params: ParamReader<N>, name: NoInfer<N>): string | undefined {
	const value = params.text(name);
	if (value !== undefined && !/^\d{1,12}(\.\d{1,4})?$/.test(value)) {
		throw FaultError.client('InvalidParameter', `${name} must be numeric, e.g. 35000 or 12.50; got '${value}'.`);
	}
	return value;
}

/** Validates and collects the advert fields of AddAdvert. */
export function advertFields(params: AddAdvertParams): AdvertFields {
	const salaryFrom = decimalText(params, 'sSalaryFrom');
	const salaryTo = decimalText(params, 'sSalaryTo');
	if (salaryFrom !== undefined && salaryTo !== undefined && Number(salaryFrom) > Number(salaryTo)) {
		throw FaultError.client(
			'InvalidParameter',
			`sSalaryFrom (${salaryFrom}) is higher than sSalaryTo (${salaryTo}).`,
		);
	}
	const currency = params.text('sSalaryCurrency')?.toUpperCase();
	if (currency !== undefined && !/^[A-Z]{3}$/.test(currency)) {
		throw FaultError.client(
			'InvalidParameter',
			`sSalaryCurrency must be a 3-letter ISO 4217 code such as GBP, EUR or USD; got '${currency}'.`,
		);
	}
	const contactEmail = params.text('sContactEmail');
	if (contactEmail !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(contactEmail)) {
		throw FaultError.client('InvalidParameter', `sContactEmail is not an email address: '${contactEmail}'.`);
	}
	const statusId = params.integer('sAdvertStatusID');
	const statuses: number[] = Object.values(ADVERT_STATUS);
	if (statusId !== undefined && !statuses.includes(statusId)) {
		throw FaultError.client(
			'InvalidParameter',
			`sAdvertStatusID must be one of ${Object.entries(ADVERT_STATUS)
				.map(([name, code]) => `${code} (${name})`)
				.join(', ')}; got ${statusId}.`,
		);
	}
	const iframe = params.text('sIframe') === undefined ? undefined : params.flag('sIframe') ? 1 : 0;
	return {
		identifier: params.text('sAdvertIdentifier'),
		reference: params.text('sAdvertReference'),
		title: params.text('sJobTitle'),
		jobType: closedChoice(
			params,
			'sJobType',
			VALUE_SETS.jobType.values.map((choice) => choice.value),
		),
		jobHours: closedChoice(
			params,
			'sJobHours',
			VALUE_SETS.jobHours.values.map((choice) => choice.value),
		),
		salaryPer: closedChoice(
			params,
			'sSalaryPer',
			VALUE_SETS.salaryPer.values.map((choice) => choice.value),
		),
		primaryLocation: params.text('sPrimaryLocation'),
		industry: params.text('sIndustry'),
		salaryFrom,
		salaryTo,
		salaryCurrency: currency,
		salaryBenefits: params.text('sSalaryBenefits'),
		contactName: params.text('sContactName'),
		contactEmail,
		jobDescription: params.text('sJobDescription'),
		applicationUrl: params.httpUrl('sApplicationURL'),
		callbackUrl: params.httpUrl('sApplicationCallbackURL'),
		scheduledPostAt: params.dateTime('sFuturePostDateTimeInUtc'),
		redirectDomain: params.text('sRedirectDomain'),
		statusId,
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

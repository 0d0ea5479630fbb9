/**
 * The typed messages between the detail panels (host side, src/extension/panels) and their webviews
 * (src/webview/advert, src/webview/application), plus the guards the host uses to validate every
 * inbound message. No VS Code and no DOM imports: both sides and plain-Node tests use this file.
 */
import { isOneOf, isRecord } from './webviewProtocol';

/** One labelled value, already formatted for display (the webview only ever sets it as text). */
export interface FieldRow {
	label: string;
	value: string;
	/** Set when the value is a date: its instant in ISO, which the webview shows in the user's locale (ISO in the tooltip). */
	iso?: string;
}

/** A titled group of rows (job, salary, location, ...). */
export interface FieldGroup {
	title: string;
	rows: FieldRow[];
}

/** A counter drawn as one bar of the advert chart. */
export interface CounterBar {
	label: string;
	value: number;
	/** Picks the bar colour class (counter-<kind>). */
	kind: 'total' | 'viewed' | 'suitable' | 'maybe' | 'unsuitable' | 'interview' | 'status';
}

/** The extra field values of one feed (GetAdvertWithValues). */
export interface FeedValues {
	feed: string;
	rows: FieldRow[];
}

/** One delivery log line of a posting (AdvertTrackingResponseLog). */
export interface TrackingEntry {
	postingId: string;
	feed: string;
	/**
	 * When the entry was logged (DeliveryDate: the delivery, or the queueing of one still pending); the
	 * service's text, and `deliveryIso` its instant when it reads as one (shown in the user's locale).
	 */
	deliveryDate: string;
	deliveryIso?: string;
	/** What happened, in words ("Delivered", "Queued, not delivered yet", "Failed"). */
	outcome: string;
	/** The service's ErrorLevel, as written (shown on hover). */
	errorLevel: string;
	response: string;
}

/** Everything the advert panel shows. */
export interface AdvertView {
	advertId: number;
	title: string;
	subtitle: string;
	groups: FieldGroup[];
	/** The job description: HTML from the service, sanitised in the webview into a sandboxed frame. */
	description: UntrustedHtml;
	counters: CounterBar[];
	values: FeedValues[];
	tracking: TrackingEntry[];
	/** Set when the extra values or the log could not be loaded; the rest is still shown. */
	warnings: string[];
	/** Where the posting stands ("Not posted", "Delivered", …). */
	posting: string;
	/** The advert was created in this session and its completion link is known. */
	completionLink: boolean;
	/** Values and the delivery log are still being read (the fields came from the tree's row). */
	loading: boolean;
}

/** The tabs of the application panel. */
export const APPLICATION_TABS = ['overview', 'emailBody', 'attachment', 'parsed', 'email'] as const;
export type ApplicationTab = (typeof APPLICATION_TABS)[number];
/** The tabs whose content is a document fetched on demand. */
export type DocumentTab = Exclude<ApplicationTab, 'overview'>;

/** Everything the overview of the application panel shows. */
export interface ApplicationView {
	advertId: number;
	advertCandidateId: number;
	title: string;
	subtitle: string;
	badges: FieldRow[];
	groups: FieldGroup[];
	processingMessages: string;
	/** What was done to the application in this session, newest first (`at` is ISO; shown as a local time). */
	activity: { at: string; text: string }[];
}

/**
 * Untrusted HTML as the host sends it: decoded and capped, not yet sanitised. The webview sanitises
 * it (DOMPurify needs a DOM) before it goes into the sandboxed frame.
 */
export interface UntrustedHtml {
	html: string;
	/** The document was longer than `html`; "show more" asks for a larger part. */
	truncated: boolean;
	totalChars: number;
}

/** Sanitised HTML for the sandboxed frame, with the link targets taken out of it. */
export interface SafeHtml {
	html: string;
	/** Targets of the links found in the document, in order; shown as buttons under the frame. */
	links: string[];
	blockedImages: number;
	/** The input was longer than what was sanitised. */
	truncated: boolean;
}

/** A slice of a text document; more is fetched with showMore from `offset + text.length`. */
export interface TextSlice {
	text: string;
	offset: number;
	totalChars: number;
}

/** A curriculum vitae read out of HR-XML. */
export interface CvModel {
	name: string;
	contact: FieldRow[];
	summary: string;
	experience: CvEntry[];
	education: CvEntry[];
	skills: string[];
	languages: string[];
}

export interface CvEntry {
	title: string;
	organisation: string;
	period: string;
	description: string;
}

/** One leaf part of a MIME email, as the panel shows it. */
export interface EmailPartView {
	index: number;
	contentType: string;
	fileName?: string;
	size: number;
	body: { kind: 'text'; slice: TextSlice } | { kind: 'html'; html: UntrustedHtml } | { kind: 'attachment' };
}

/** What a document tab shows. */
export type DocumentView =
	| { kind: 'missing'; message: string }
	| { kind: 'error'; message: string }
	| { kind: 'html'; fileName?: string; html: UntrustedHtml }
	| { kind: 'text'; fileName?: string; slice: TextSlice }
	| { kind: 'pdf'; fileName?: string; size: number; base64: string }
	| { kind: 'binary'; fileName?: string; contentType: string; size: number }
	| { kind: 'cv'; cv?: CvModel; problem?: string; raw: TextSlice; rawIsPretty: boolean }
	| { kind: 'email'; headers: FieldRow[]; parts: EmailPartView[] };

/** Messages from the host to the advert webview. */
export type HostToAdvertMessage =
	| { type: 'advert'; view: AdvertView }
	/** The panel is a preview (replaced by the next item opened from the tree) or stays. */
	| { type: 'mode'; preview: boolean }
	| { type: 'busy'; busy: boolean; label?: string }
	| { type: 'error'; message: string };

/** Messages from the host to the application webview. */
export type HostToApplicationMessage =
	| { type: 'application'; view: ApplicationView }
	| { type: 'document'; tab: DocumentTab; view: DocumentView }
	| { type: 'moreText'; tab: DocumentTab; part?: number; slice: TextSlice }
	| { type: 'moreHtml'; tab: DocumentTab; part?: number; html: UntrustedHtml }
	| { type: 'mode'; preview: boolean }
	| { type: 'busy'; busy: boolean; label?: string }
	| { type: 'error'; message: string };

export const ADVERT_COPY_FIELDS = ['advertId', 'advertIdentifier', 'advertReference'] as const;
export const APPLICATION_COPY_FIELDS = ['advertCandidateId', 'advertId', 'candidateEmail'] as const;
export const APPLICATION_ACTIONS = ['score', 'progress', 'note', 'tag', 'partnerTag'] as const;
export type ApplicationAction = (typeof APPLICATION_ACTIONS)[number];

/** Messages from the advert webview to the host. */
export type AdvertToHostMessage =
	| { type: 'ready' }
	| { type: 'refresh' }
	| { type: 'expressPost' }
	| { type: 'openWeb' }
	| { type: 'keepOpen' }
	| { type: 'openCompletion' }
	| { type: 'copyCompletion' }
	| { type: 'openLink'; url: string }
	| { type: 'copy'; field: (typeof ADVERT_COPY_FIELDS)[number] };

/** Messages from the application webview to the host. */
export type ApplicationToHostMessage =
	| { type: 'ready' }
	| { type: 'refresh' }
	| { type: 'action'; action: ApplicationAction }
	| { type: 'copy'; field: (typeof APPLICATION_COPY_FIELDS)[number] }
	| { type: 'openDocument'; tab: DocumentTab }
	| { type: 'showMore'; tab: DocumentTab; part?: number; offset: number }
	| { type: 'save'; tab: DocumentTab; part?: number }
	| { type: 'keepOpen' }
	| { type: 'openLink'; url: string };

/** Largest string accepted from a webview (a URL); anything longer is not a message of ours. */
const MAX_STRING = 8192;

function isIndex(value: unknown): value is number {
	return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function optionalIndex(value: unknown): boolean {
	return value === undefined || isIndex(value);
}

const DOCUMENT_TABS: readonly DocumentTab[] = APPLICATION_TABS.filter((t): t is DocumentTab => t !== 'overview');

/** True for a well-formed message of the advert webview; anything else must be ignored. */
export function isAdvertToHostMessage(value: unknown): value is AdvertToHostMessage {
	if (!isRecord(value)) return false;
	switch (value.type) {
		case 'ready':
		case 'refresh':
		case 'expressPost':
		case 'openWeb':
		case 'keepOpen':
		case 'openCompletion':
		case 'copyCompletion':
			return true;
		case 'copy':
			return isOneOf(ADVERT_COPY_FIELDS, value.field);
		case 'openLink':
			return typeof value.url === 'string' && value.url.length > 0 && value.url.length <= MAX_STRING;
		default:
			return false;
	}
}

/** True for a well-formed message of the application webview; anything else must be ignored. */
export function isApplicationToHostMessage(value: unknown): value is ApplicationToHostMessage {
	if (!isRecord(value)) return false;
	switch (value.type) {
		case 'ready':
		case 'refresh':
		case 'keepOpen':
			return true;
		case 'action':
			return isOneOf(APPLICATION_ACTIONS, value.action);
		case 'copy':
			return isOneOf(APPLICATION_COPY_FIELDS, value.field);
		case 'openDocument':
			return isOneOf(DOCUMENT_TABS, value.tab);
		case 'showMore':
			return isOneOf(DOCUMENT_TABS, value.tab) && optionalIndex(value.part) && isIndex(value.offset);
		case 'save':
			return isOneOf(DOCUMENT_TABS, value.tab) && optionalIndex(value.part);
		case 'openLink':
			return typeof value.url === 'string' && value.url.length > 0 && value.url.length <= MAX_STRING;
		default:
			return false;
	}
}

/** Link schemes the host opens (after the user confirms); everything else is refused. */
export const OPENABLE_SCHEMES: readonly string[] = ['http:', 'https:', 'mailto:'];

/** True when `url` parses as an absolute URL with an openable scheme. */
export function isOpenableUrl(url: string): boolean {
	try {
		return OPENABLE_SCHEMES.includes(new URL(url).protocol);
	} catch {
		return false;
	}
}

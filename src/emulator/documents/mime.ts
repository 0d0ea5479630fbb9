/** Application emails as RFC 5322 / MIME messages: multipart/mixed with an HTML body and one attachment. */

/** An attachment of an email. */
export interface MimeAttachment {
	fileName: string;
	contentType: string;
	bytes: Uint8Array;
}

/** The headers and parts of an email. */
export interface MimeMessage {
	fromName: string;
	fromAddress: string;
	to: string;
	subject: string;
	date: Date;
	/** Used in Message-ID and the boundary so that every message is unique yet reproducible. */
	id: string;
	html: string;
	attachment: MimeAttachment;
}

/** RFC 2047 encoded-word when the header text is not plain ASCII. */
function headerText(text: string): string {
	const clean = text.replace(/[\r\n]+/g, ' ');
	return /^[\x20-\x7e]*$/.test(clean) ? clean : `=?UTF-8?B?${Buffer.from(clean, 'utf8').toString('base64')}?=`;
}

/** A quoted MIME parameter value; non-ASCII file names are replaced by a safe ASCII form. */
function parameterValue(text: string): string {
	return `"${text
		.normalize('NFD')
		.replace(/[^\x20-\x7e]/g, '')
		.replace(/["\\\r\n]/g, '_')}"`;
}

function base64Lines(bytes: Uint8Array): string {
	return Buffer.from(bytes)
		.toString('base64')
		.replace(/.{76}(?=.)/g, '$&\r\n');
}

/** The message as text with CRLF line ends. The HTML part is base64 so that no line is too long. */
export function createMimeEmail(message: MimeMessage): string {
	const boundary = `----=_Part_${message.id.replace(/[^A-Za-z0-9]/g, '')}`;
	return [
		`From: ${headerText(message.fromName)} <${message.fromAddress}>`,
		`To: <${message.to}>`,
		`Subject: ${headerText(message.subject)}`,
		`Date: ${message.date.toUTCString().replace('GMT', '+0000')}`,
		`Message-ID: <${message.id.replace(/[^A-Za-z0-9.-]/g, '')}@sandbox.multiposting.example>`,
		'MIME-Version: 1.0',
		`Content-Type: multipart/mixed; boundary="${boundary}"`,
		'',
		'This is a multi-part message in MIME format.',
		`--${boundary}`,
		'Content-Type: text/html; charset=utf-8',
		'Content-Transfer-Encoding: base64',
		'',
		base64Lines(new TextEncoder().encode(message.html)),
		`--${boundary}`,
		`Content-Type: ${message.attachment.contentType}; name=${parameterValue(message.attachment.fileName)}`,
		'Content-Transfer-Encoding: base64',
		`Content-Disposition: attachment; filename=${parameterValue(message.attachment.fileName)}`,
		'',
		base64Lines(message.attachment.bytes),
		`--${boundary}--`,
		'',
	].join('\r\n');
}

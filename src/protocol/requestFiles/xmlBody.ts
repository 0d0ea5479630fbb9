/**
 * Values substituted into hand-written XML bodies. Apart from placeholders.ts so the webview bundle,
 * which needs the placeholders only, does not carry the XML codec.
 */
import { escapeXml } from '../codecs/xml';

/**
 * A value substituted into a hand-written XML body, where it may land in text or in an attribute in
 * either quote: escaped for all of them; characters XML cannot carry are sent as given, since raw
 * requests go out as written.
 */
export function xmlBodyValue(value: string): string {
	return escapeXml(value, 'keep');
}

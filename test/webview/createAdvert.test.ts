import * as assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { advertFormFields, type AdvertFormValues } from '../../src/shared/advertForm';
import { renderAdvertForm, renderCreated } from '../../src/webview/createAdvert/render';
import { feedOptions } from '../shared/feedOptions';

const FEEDS = feedOptions();

function setup(values: AdvertFormValues = {}) {
	const dom = new JSDOM('<!DOCTYPE html><body></body>');
	const doc = dom.window.document;
	const changes: AdvertFormValues[] = [];
	const submitted: AdvertFormValues[] = [];
	const view = renderAdvertForm(doc, advertFormFields(), FEEDS, values, {
		onChange: (v) => changes.push(v),
		onSubmit: (v) => submitted.push(v),
	});
	doc.body.appendChild(view.element);
	const type = (name: string, text: string) => {
		const input = doc.getElementById(`f-${name}`) as HTMLInputElement;
		input.value = text;
		input.dispatchEvent(new dom.window.Event('input'));
		input.dispatchEvent(new dom.window.Event('blur'));
	};
	const error = (name: string) => {
		const node = doc.getElementById(`e-${name}`)!;
		return node.hidden ? undefined : node.textContent;
	};
	const submit = () => view.element.dispatchEvent(new dom.window.Event('submit', { cancelable: true }));
	return { dom, doc, view, changes, submitted, type, error, submit };
}

describe('Create Advert form (jsdom)', function () {
	it('renders every section with labelled controls, value sets as choices and the boards ticked by default', function () {
		const { doc } = setup();
		for (const title of ['Job', 'Salary', 'Contact and applying', 'Job boards']) {
			assert.ok(doc.querySelector(`section[aria-label="${title}"]`), title);
		}
		const type = doc.getElementById('f-sJobType') as HTMLSelectElement;
		assert.equal(type.localName, 'select');
		assert.deepEqual(
			Array.from(type.options).map((o) => o.textContent),
			['(not given)', 'Permanent', 'Contract', 'Temporary'],
		);
		assert.equal((doc.getElementById('f-sJobDescription') as HTMLElement).localName, 'textarea');
		for (const control of Array.from(doc.querySelectorAll('input:not([type=checkbox]), select, textarea'))) {
			assert.ok(doc.querySelector(`label[for="${control.id}"]`), `${control.id} has a label`);
		}
		const boxes = Array.from(doc.querySelectorAll<HTMLInputElement>('input[type=checkbox]'));
		assert.deepEqual(
			boxes.map((b) => [b.value, b.checked, b.disabled]),
			[
				['108', true, false],
				['101', true, true],
				['104', false, false],
			],
		);
	});

	it('says why a board is ticked and what it costs, right after the description that depends on them', function () {
		const { doc } = setup();
		const sections = Array.from(doc.querySelectorAll('section[aria-label]')).map((s) =>
			s.getAttribute('aria-label'),
		);
		assert.equal(sections.indexOf('Job boards'), sections.indexOf('Job') + 1, sections.join(', '));
		const rows = Array.from(doc.querySelectorAll('.mp-feed label')).map((l) => l.textContent);
		assert.deepEqual(rows, [
			'Totaljobs ticked by default for your account (untick to leave out) · costs GBP 25 (Posting) · description 250+ characters',
			'Indeed always posted · description 100+ characters',
			'CV-Library costs GBP 10 (Posting) · description 0+ characters',
		]);
	});

	it('checks as the user types: numeric salary, "to" not below "from", the description per board', function () {
		const { type, error } = setup();
		type('sSalaryFrom', '-28000');
		assert.match(error('sSalaryFrom')!, /Enter a number/);
		type('sSalaryFrom', '34000');
		type('sSalaryTo', '28000');
		assert.equal(error('sSalaryFrom'), undefined);
		assert.equal(error('sSalaryTo'), '“To” (28000) is below “From” (34000).');
		type('sJobDescription', 'Caring for patients on a busy ward.');
		assert.match(error('sJobDescription')!, /Too short for Totaljobs: at least 250 characters \(now 35\)/);
		assert.match(error('sJobDescription')!, /Too short for Indeed: at least 100 characters/);
	});

	it('shows the description counter and the quota and cost of the chosen boards', function () {
		const { doc, dom, type } = setup();
		type('sJobDescription', 'x'.repeat(120));
		assert.match(
			doc.getElementById('desc-counter')!.textContent!,
			/^120 characters \(without markup\); the chosen boards need 250 or more characters\.$/,
		);
		const cost = () => doc.querySelector('.mp-cost')!.textContent!;
		assert.match(cost(), /Totaljobs — £25\.00 per posting, 7 of 10 postings left/);
		assert.match(cost(), /Indeed — always posted, free, 4 of 5 postings left/);
		assert.match(cost(), /Posting uses 2 postings of quota and costs £25\.00\./);
		const cvLibrary = doc.getElementById('feed-104') as HTMLInputElement;
		cvLibrary.checked = true;
		cvLibrary.dispatchEvent(new dom.window.Event('change'));
		assert.match(cost(), /Posting uses 3 postings of quota and costs £35\.00\./);
	});

	it('submits only valid answers, and keeps them with the service message next to its field when refused', function () {
		const { doc, type, submit, submitted, view, error } = setup();
		submit();
		assert.equal(submitted.length, 0);
		assert.match(doc.querySelector('.mp-form-banner')!.textContent!, /Check 2 fields/);
		assert.equal(doc.activeElement?.id, 'f-sJobTitle', 'the first problem gets the focus');
		type('sJobTitle', 'Staff nurse');
		type('sJobDescription', 'Caring for patients. '.repeat(15));
		type('sSalaryFrom', '28000');
		submit();
		assert.equal(submitted.length, 1);
		assert.equal(submitted[0].sJobTitle, 'Staff nurse');
		assert.equal(submitted[0].DestinationsAsCSV, '108');
		view.showRefusal('The service refused the advert: sSalaryFrom must be numeric.', 'sSalaryFrom');
		assert.equal(error('sSalaryFrom'), 'The service refused the advert: sSalaryFrom must be numeric.');
		assert.equal((doc.getElementById('f-sSalaryFrom') as HTMLInputElement).value, '28000', 'the answers stay');
		assert.equal((doc.getElementById('f-sJobTitle') as HTMLInputElement).value, 'Staff nurse');
		assert.equal(doc.getElementById('f-sSalaryFrom')!.getAttribute('aria-invalid'), 'true');
	});

	it('starts from the answers kept by the host', function () {
		const { doc } = setup({ sJobTitle: 'Kept', DestinationsAsCSV: '104' });
		assert.equal((doc.getElementById('f-sJobTitle') as HTMLInputElement).value, 'Kept');
		assert.equal((doc.getElementById('feed-104') as HTMLInputElement).checked, true);
		assert.equal((doc.getElementById('feed-108') as HTMLInputElement).checked, false);
	});

	it('shows the completion link with Open, Copy and Show Advert once created', function () {
		const dom = new JSDOM('<!DOCTYPE html><body></body>');
		const posted: string[] = [];
		const section = renderCreated(
			dom.window.document,
			{ advertId: 42, title: 'Staff nurse', redirectUrl: 'http://127.0.0.1:1/complete-posting/abc' },
			(type) => posted.push(type),
		);
		assert.equal(section.querySelector('h1')!.textContent, 'Advert “Staff nurse” created');
		assert.equal(section.querySelector('code')!.textContent, 'http://127.0.0.1:1/complete-posting/abc');
		for (const button of Array.from(section.querySelectorAll('button'))) button.click();
		assert.deepEqual(posted, ['openCompletion', 'copyCompletion', 'showAdvert', 'startOver']);
	});
});

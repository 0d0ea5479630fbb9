import * as assert from 'node:assert/strict';
import { newForm } from '../../../src/shared/playgroundForms';
import { sameCall, sameRequest, Workbench } from '../../../src/webview/playground/workbench';
import { response } from './harness';

describe('playground workbench memory', function () {
	it('compares requests by operation, binding, mode and what the mode sends, never by timeout', function () {
		const form = newForm('GetCurrency');
		assert.equal(sameRequest(form, { ...form, timeoutMs: 5 }), true);
		assert.equal(sameRequest(form, { ...form, binding: 'soap12' }), false);
		assert.equal(sameRequest(form, { ...form, params: { ...form.params, sCultureID: 'x' } }), false);
		// In raw mode only the raw request counts.
		const raw = { ...form, mode: 'raw' as const };
		assert.equal(sameRequest(raw, { ...raw, params: { ...form.params, sCultureID: 'x' } }), true);
		assert.equal(sameRequest(raw, { ...raw, raw: { ...raw.raw, body: '<x/>' } }), false);
		assert.equal(sameCall(form, { ...form, binding: 'httpGet' }), true);
	});

	it('switches operations with a fresh form that keeps binding and timeout, and restores a known one', function () {
		const bench = new Workbench();
		bench.setForm({
			...bench.form,
			binding: 'httpPost',
			timeoutMs: 900,
			params: { ...bench.form.params, sCultureID: 'de' },
		});
		const next = bench.switchOperation('UserList');
		assert.equal(next.operation, 'UserList');
		assert.equal(next.binding, 'httpPost');
		assert.equal(next.timeoutMs, 900);
		assert.equal(next.mode, 'form');
		assert.equal(bench.switchOperation('GetCurrency').params.sCultureID, 'de');
	});

	it('keeps an exchange per operation, shown only while it answers the request on screen', function () {
		const bench = new Workbench();
		bench.recordExchange(bench.form, response());
		assert.equal(bench.exchange()?.current, true);
		bench.setForm({ ...bench.form, binding: 'soap12' });
		assert.equal(bench.exchange()?.current, false);
		bench.switchOperation('UserList');
		assert.equal(bench.exchange(), undefined);
	});

	it('keeps in the saved state only what fits, the current operation first', function () {
		const bench = new Workbench();
		bench.recordExchange(bench.form, response({ bodyText: 'x'.repeat(1_500_000) }));
		bench.switchOperation('UserList');
		bench.recordExchange(bench.form, response({ bodyText: 'y'.repeat(1_500_000) }));
		const saved = bench.saved();
		assert.deepEqual(Object.keys(saved.exchanges ?? {}), ['UserList']);
		const restored = new Workbench(saved);
		assert.equal(restored.form.operation, 'UserList');
		assert.equal(restored.exchange()?.current, true);
	});
});

import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SANDBOX_PORT, SANDBOX_NAMESPACE } from '../../../src/emulator/endpoint';
import { PortInUseError } from '../../../src/emulator/portHolder';
import { sandboxConnectionInfo, sandboxPortSetting } from '../../../src/extension/connections/model';
import { COMMANDS } from '../../../src/extension/ids';
import {
	changePort,
	OPEN_SETTINGS,
	offerAnotherPort,
	usePortAction,
} from '../../../src/extension/sandbox/portConflict';
import { AccountModel } from '../../../src/extension/tree/accountModel';
import { FakeUi, MemoryLog, MemorySettings } from '../fakes';

const taken = new PortInUseError('127.0.0.1', 24817, { pid: 4242, command: 'node sandbox.js', uid: 1000 }, 24818);

function deps(ui: FakeUi, settings = new MemorySettings()) {
	let starts = 0;
	let settingsOpened = 0;
	return {
		settings,
		starts: () => starts,
		settingsOpened: () => settingsOpened,
		deps: {
			ui,
			settings,
			sandbox: {
				start: async () => {
					starts++;
					return { baseUrl: `http://127.0.0.1:${String(settings.get('sandbox.port', 0))}` };
				},
			} as never,
			openSettings: () => {
				settingsOpened++;
			},
		},
	};
}

describe('sandbox port conflicts', () => {
	it('names the holder and, on "Use port N", saves the setting and starts there', async () => {
		const ui = new FakeUi();
		ui.errorAnswer = usePortAction(24818);
		const t = deps(ui);
		assert.equal(await offerAnotherPort(taken, t.deps), true);
		assert.deepEqual(ui.messages('error'), [
			'The sandbox cannot start: port 24817 is already in use by process 4242 (node sandbox.js). Port 24818 is free.',
		]);
		assert.equal(t.settings.get('sandbox.port', 0), 24818);
		assert.equal(t.starts(), 1);
		assert.match(ui.messages('info')[0], /runs at http:\/\/127\.0\.0\.1:24818/);
	});

	it('opens the setting on "Open Settings" and changes nothing else', async () => {
		const ui = new FakeUi();
		ui.errorAnswer = OPEN_SETTINGS;
		const t = deps(ui);
		await offerAnotherPort(taken, t.deps);
		assert.equal(t.settingsOpened(), 1);
		assert.equal(t.starts(), 0);
		assert.equal(t.settings.values.size, 0);
	});

	it('leaves other failures to the usual report and says "another program" when the holder is unknown', async () => {
		const ui = new FakeUi();
		const t = deps(ui);
		assert.equal(await offerAnotherPort(new Error('disk full'), t.deps), false);
		assert.equal(ui.calls.length, 0);
		await offerAnotherPort(new PortInUseError('127.0.0.1', 24817, undefined, undefined), t.deps);
		assert.deepEqual(ui.messages('error'), [
			'The sandbox cannot start: port 24817 is already in use by another program.',
		]);
	});

	it('explains a taken port in the view itself, with "Use port N" and "Change port…" rows', async () => {
		const model = new AccountModel({
			client: () => Promise.reject(new Error('nothing is read')),
			connection: () => sandboxConnectionInfo(undefined, 24817),
			sandboxState: () => 'failed',
			sandboxFailure: () => taken,
			pageSize: () => 5,
			progressNames: () => undefined,
			log: new MemoryLog(),
		});
		const [root] = model.roots();
		assert.equal(root.descriptor.description, 'built-in · failed');
		const rows = (await model.getChildren(root)).map((n) => ({
			label: n.descriptor.label,
			command: n.descriptor.command,
		}));
		assert.deepEqual(rows, [
			{ label: 'Port 24817 is in use by process 4242 (node sandbox.js)', command: undefined },
			{ label: 'Use port 24818', command: { id: COMMANDS.sandboxUsePort, arguments: [24818] } },
			{ label: 'Change port…', command: { id: COMMANDS.sandboxChangePort, arguments: [] } },
		]);
		const otherFailure = new AccountModel({
			client: () => Promise.reject(new Error('nothing is read')),
			connection: () => sandboxConnectionInfo(undefined, 24817),
			sandboxState: () => 'failed',
			sandboxFailure: () => new Error('disk full'),
			pageSize: () => 5,
			progressNames: () => undefined,
			log: new MemoryLog(),
		});
		assert.deepEqual(otherFailure.roots(), [], 'another failure keeps the welcome (Show Log, Start Sandbox)');
	});

	it('"Change port…" asks for a port, saves it and starts there', async () => {
		const ui = new FakeUi([{ input: '24900' }]);
		const t = deps(ui);
		await changePort(t.deps);
		assert.equal(t.settings.get('sandbox.port', 0), 24900);
		assert.equal(t.starts(), 1);
		const validate = (ui.calls[0].options as { validate: (t: string) => string | undefined }).validate;
		assert.equal(validate('80'), 'Enter a port from 1024 to 65535, or 0 for any free port');
		assert.equal(validate('0'), undefined);
	});

	it('uses one default port for the CLI, the setting and the sandbox connection, and a namespace without the port', () => {
		const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as {
			contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
		};
		assert.equal(
			manifest.contributes.configuration.properties['multiposting.sandbox.port'].default,
			DEFAULT_SANDBOX_PORT,
		);
		const stopped = sandboxConnectionInfo(undefined, DEFAULT_SANDBOX_PORT);
		assert.equal(stopped.baseUrl, `http://127.0.0.1:${DEFAULT_SANDBOX_PORT}`);
		assert.equal(stopped.namespace, SANDBOX_NAMESPACE);
		assert.doesNotMatch(SANDBOX_NAMESPACE, /\d{2,}/);
		assert.equal(sandboxConnectionInfo(undefined, 0).baseUrl, 'http://127.0.0.1');
		assert.equal(sandboxPortSetting(8123), 8123);
		assert.equal(sandboxPortSetting(0), 0);
		for (const bad of [-1, 70000, 1.5, '8123', null, undefined]) {
			assert.equal(sandboxPortSetting(bad), DEFAULT_SANDBOX_PORT, String(bad));
		}
	});
});

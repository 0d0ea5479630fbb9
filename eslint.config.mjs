// Lint rules plus the import fences that keep the layers apart (see docs/architecture.md "Layout").
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const vscodeOnlyInExtension = { name: 'vscode', message: 'The VS Code API may be imported only under src/extension/.' };
/** Import patterns of whole layers: a folder's index ('../client') and anything under it ('../client/x'). */
const layers = (...names) => names.flatMap((name) => [`**/${name}`, `**/${name}/**`]);

export default tseslint.config(
	{ ignores: ['out/**', 'dist/**', 'node_modules/**', '.cache/**', 'media/**', '**/*.mjs', '**/*.js', '**/*.cjs'] },
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		files: ['**/*.ts'],
		languageOptions: {
			parserOptions: { projectService: { allowDefaultProject: [] }, tsconfigRootDir: import.meta.dirname },
		},
		rules: {
			'@typescript-eslint/no-floating-promises': 'error',
			// A promise returned from a try block must be awaited there, or its finally runs first (the bench's
			// page was closed under a pending evaluate).
			'@typescript-eslint/return-await': ['error', 'in-try-catch'],
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
			'@typescript-eslint/no-explicit-any': 'error',
			curly: ['error', 'multi-line'],
			eqeqeq: ['error', 'always'],
			'no-console': 'off',
		},
	},
	{
		// Browser code is type-checked with the DOM library of its own tsconfig.
		files: ['src/webview/**/*.ts'],
		languageOptions: {
			parserOptions: {
				projectService: false,
				project: './tsconfig.webview.json',
				tsconfigRootDir: import.meta.dirname,
			},
		},
	},
	{
		files: ['src/client/**/*.ts', 'src/emulator/**/*.ts', 'src/shared/**/*.ts', 'src/webview/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: [vscodeOnlyInExtension],
					patterns: [
						{
							group: layers('extension'),
							message: 'Only src/extension may depend on the extension layer.',
						},
					],
				},
			],
		},
	},
	{
		// Webviews and the helpers they share with the host handle messages only: no client, no sandbox.
		files: ['src/shared/**/*.ts', 'src/webview/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: [vscodeOnlyInExtension, 'undici'],
					patterns: [
						{
							group: layers('client', 'emulator', 'extension'),
							message:
								'src/webview and src/shared depend only on src/protocol and src/shared: the host calls the service.',
						},
					],
				},
			],
		},
	},
	{
		files: ['src/client/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: [vscodeOnlyInExtension],
					patterns: [
						{
							group: layers('emulator', 'extension'),
							message: 'The client talks to services only through src/protocol.',
						},
					],
				},
			],
		},
	},
	{
		files: ['src/emulator/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: [
						vscodeOnlyInExtension,
						{ name: 'undici', message: 'The emulator is a server; it does not use the HTTP client.' },
					],
					patterns: [
						{
							group: layers('client', 'extension'),
							message: 'The emulator depends only on src/protocol.',
						},
					],
				},
			],
		},
	},
	{
		// The test-runner CLI joins the client and the sandbox; it never touches VS Code.
		files: ['src/cli/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: [vscodeOnlyInExtension],
					patterns: [
						{
							group: layers('extension', 'webview'),
							message: 'The CLI uses the client, the emulator and src/protocol only.',
						},
					],
				},
			],
		},
	},
	{
		files: ['src/protocol/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: [
						vscodeOnlyInExtension,
						'undici',
						'node:http',
						'node:https',
						'node:fs',
						'node:net',
						'fs',
						'http',
						'https',
						'net',
						'node:fs/promises',
						'node-sqlite3-wasm',
					],
					patterns: [
						{
							group: layers('client', 'emulator', 'extension'),
							message: 'src/protocol is pure: no I/O and no other layer.',
						},
					],
				},
			],
		},
	},
	{
		// Every search the extension sends is a named query of its read side.
		files: ['src/extension/**/*.ts'],
		ignores: ['src/extension/reads/**'],
		rules: {
			'no-restricted-syntax': [
				'error',
				{
					selector:
						'CallExpression[callee.property.name=/^(getAdvertPaged|getApplicationsPaged|userList|getAdvertWithValuesPaged|getAdvertWithValues)$/]',
					message: 'Searches are built in src/extension/reads/queries.ts: add or use a named query there.',
				},
			],
		},
	},
	{
		files: ['test/**/*.ts', 'bench/**/*.ts'],
		rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
	},
);

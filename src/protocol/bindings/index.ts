/** The four bindings by name. */
import { httpGetBinding, httpPostBinding } from './http';
import { soap11Binding, soap12Binding } from './soap';
import type { Binding, BindingName } from './types';

export * from './types';
export { SOAP11_ENV, SOAP12_ENV } from './soap';

const BINDINGS: Readonly<Record<BindingName, Binding>> = {
	soap11: soap11Binding,
	soap12: soap12Binding,
	httpGet: httpGetBinding,
	httpPost: httpPostBinding,
};

export function getBinding(name: BindingName): Binding {
	const binding = BINDINGS[name];
	if (!binding) throw new Error(`Unknown binding ${String(name)}: use one of soap11, soap12, httpGet, httpPost.`);
	return binding;
}

#!/usr/bin/env bash
# Conformance run with independent client stacks against the sandbox as shipped (npm run conformance).
# Installs what it needs from Debian (idempotent: present packages are skipped), builds dist/ if it is
# missing, generates .NET proxies from the sandbox's WSDL with Mono's wsdl tool in the four bindings,
# compiles them and the WCF client, then runs test/interop/conformance.mjs, which starts the sandbox,
# runs every stack and prints a table. Not part of npm test (Mono, PHP and Python are large installs).
# Environment: CONFORMANCE_STACKS=zeep,php  runs only the stacks whose names contain these words.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
APT_PACKAGES=(mono-devel python3-zeep python3-suds php-cli php-soap)

missing=()
for package in "${APT_PACKAGES[@]}"; do
	dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
	echo "[conformance] installing ${missing[*]}"
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[ -d "$root/node_modules/soap" ] || (cd "$root" && npm install --no-save soap)
[ -f "$root/dist/sandbox.js" ] || (cd "$root" && node esbuild.mjs)

out="$(mktemp -d)"
cleanup() {
	if [ -n "${sandbox_pid:-}" ]; then kill "$sandbox_pid" 2>/dev/null || true; fi
	rm -rf "$out"
}
trap cleanup EXIT

# The proxies are generated from the WSDL of a sandbox of their own (the run starts a fresh one);
# the endpoint is set from the plan at run time, so this sandbox may stop once they are written.
node "$root/dist/sandbox.js" --port 0 --data "$out/wsdl-data" >"$out/sandbox.json" 2>/dev/null &
sandbox_pid=$!
for _ in $(seq 1 240); do
	[ -s "$out/sandbox.json" ] && break
	sleep 0.5
done
posting_wsdl="$(node -p "JSON.parse(require('fs').readFileSync('$out/sandbox.json','utf8')).postingWsdl")"
admin_wsdl="$(node -p "JSON.parse(require('fs').readFileSync('$out/sandbox.json','utf8')).adminWsdl")"
namespace="$(node -p "JSON.parse(require('fs').readFileSync('$out/sandbox.json','utf8')).namespace")"
for protocol in SOAP SOAP12 HttpGet HttpPost; do
	wsdl -nologo -protocol:"$protocol" -namespace:"P$protocol" -out:"$out/posting_$protocol.cs" "$posting_wsdl" >/dev/null
	wsdl -nologo -protocol:"$protocol" -namespace:"A$protocol" -out:"$out/admin_$protocol.cs" "$admin_wsdl" >/dev/null
done
kill "$sandbox_pid" && wait "$sandbox_pid" 2>/dev/null || true
sandbox_pid=""
mcs -nologo -nowarn:0618,0649 -r:System.Web.Services.dll -r:System.Web.Extensions.dll -r:System.Xml.dll \
	-r:System.EnterpriseServices.dll -out:"$out/asmx.exe" "$here/dotnet/AsmxClient.cs" "$out"/posting_*.cs "$out"/admin_*.cs
sed "s#http://mp.example/#$namespace#g" "$here/wcf/FaultClient.cs" >"$out/wcf.cs"
mcs -nologo -r:System.ServiceModel.dll -r:System.Runtime.Serialization.dll -r:System.Xml.dll \
	-r:System.Web.Extensions.dll -out:"$out/wcf.exe" "$out/wcf.cs"

echo "[conformance] $(mono --version | head -1); $(php -r 'echo "PHP ", PHP_VERSION;'); zeep $(/usr/bin/python3 -c 'import zeep; print(zeep.__version__)'); suds $(/usr/bin/python3 -c 'import suds; print(suds.__version__)'); node-soap $(node -p "require('$root/node_modules/soap/package.json').version"); node $(node --version)"
node "$here/conformance.mjs" "$out/asmx.exe"

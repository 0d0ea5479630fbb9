#!/usr/bin/env bash
# Set-up of `npm run bench`: what the peers of the server and proxy benchmarks need beyond npm install.
# WireMock's standalone jar comes with the npm package `wiremock` (a devDependency); it runs on
# Java, which comes from Debian (default-jre-headless). mitmproxy (the proxy benchmark's other peer,
# `mitmdump`) comes from Debian too. Nothing is downloaded at run time.
set -euo pipefail
cd "$(dirname "$0")/.."

# Installs Debian packages when this runs as root with apt-get; otherwise says what is missing.
install_debian() {
	local what="$1"
	shift
	if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
		echo "bench/setup.sh: installing $what ($*)" >&2
		if [ -z "${apt_updated:-}" ]; then
			apt-get update -qq
			apt_updated=1
		fi
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
	else
		echo "bench/setup.sh: no $what; it will be reported as not measured (install $*)" >&2
	fi
}

if ! command -v java >/dev/null 2>&1; then
	install_debian 'Java for WireMock' default-jre-headless
fi
if ! command -v mitmdump >/dev/null 2>&1; then
	install_debian 'mitmproxy (mitmdump) for the proxy benchmark' mitmproxy
fi
if ! ls node_modules/wiremock/build/wiremock-standalone-*.jar >/dev/null 2>&1; then
	echo "bench/setup.sh: node_modules/wiremock is missing; run npm install" >&2
fi

#!/usr/bin/env bash
# Installs the system packages the harness uses on Debian 12 (bookworm), as root:
#   - Mesa's lavapipe (software Vulkan) from bookworm-backports, so Dawn has a WebGPU adapter
#     on a machine without a GPU. Bookworm's own Mesa 22.3 is rejected by Dawn; 25.x works.
#   - ffmpeg (Kinetics clips) and chromium (the HTML report's browser test).
#   - prometheus and prometheus-node-exporter (doctor's textfile test; their services not started).
# It enables backports by adding the suite to the machine's existing deb822 sources file:
# no archive host name is written anywhere. Safe to run twice.
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
  echo "setup-system: run as root (it calls apt-get)." >&2
  exit 1
fi
if ! command -v apt-get >/dev/null; then
  echo "setup-system: no apt-get here; install a Vulkan driver for your GPU (or Mesa lavapipe) by hand." >&2
  exit 1
fi

if ! vulkan_ok=$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null) || [[ "$vulkan_ok" != 2[5-9].* ]]; then
  . /etc/os-release
  if [ "${VERSION_CODENAME:-}" = bookworm ]; then
    sources=/etc/apt/sources.list.d/debian.sources
    if [ ! -f "$sources" ]; then
      echo "setup-system: $sources not found; add bookworm-backports to your apt sources, then rerun." >&2
      exit 1
    fi
    if ! grep -Eq '^Suites:.*bookworm-backports' "$sources"; then
      # Add the suite to the first stanza that carries plain 'bookworm'.
      sed -i '0,/^Suites: bookworm\( \|$\)/s//Suites: bookworm bookworm-backports\1/' "$sources"
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -t bookworm-backports mesa-vulkan-drivers >/dev/null
  else
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mesa-vulkan-drivers >/dev/null
  fi
fi
echo "setup-system: mesa-vulkan-drivers $(dpkg-query -W -f='${Version}' mesa-vulkan-drivers) installed."

# ffmpeg decodes the Kinetics clips (section 8); Chromium renders the HTML report in its test;
# xmllint (libxml2-utils) validates --junit output against Jenkins' junit-10.xsd in its tests.
missing=()
command -v ffmpeg >/dev/null || missing+=(ffmpeg)
command -v chromium >/dev/null || missing+=(chromium)
command -v xmllint >/dev/null || missing+=(libxml2-utils)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "setup-system: $(ffmpeg -version | head -1 | cut -d' ' -f1-3); $(chromium --version 2>/dev/null || echo 'chromium missing'); $(xmllint --version 2>&1 | head -1)."

# Prometheus and its node exporter: doctor's textfile test starts and stops its own on free
# loopback ports. The packages' services must not start (nor fail to) on install: a policy-rc.d
# that answers 101, "action forbidden", stops invoke-rc.d and deb-systemd-invoke from starting
# them (Debian's invoke-rc.d(8) and its README.policy-rc.d); where systemd runs, the units the
# postinst enabled are disabled again, so a reboot does not start them either.
if ! command -v prometheus >/dev/null || ! command -v prometheus-node-exporter >/dev/null; then
  policy=/usr/sbin/policy-rc.d
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod 755 "$policy"
    trap 'rm -f "$policy"' EXIT
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus prometheus-node-exporter >/dev/null
  if [ -d /run/systemd/system ]; then
    systemctl disable --now prometheus.service prometheus-node-exporter.service >/dev/null 2>&1 || true
  fi
fi
echo "setup-system: $(prometheus --version 2>&1 | head -1 | cut -d' ' -f1-3); $(prometheus-node-exporter --version 2>&1 | head -1 | cut -d' ' -f1-3)."

#!/usr/bin/env bash
# Checks formatting and the no-force-unwrap / no-force-try rules of .swift-format.
set -euo pipefail
cd "$(dirname "$0")/.."
swift format lint --strict --recursive Sources Tests Package.swift

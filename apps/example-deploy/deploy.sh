#!/bin/sh
# Records a deployment in tis with nothing but curl (POST /api/v1/deployments).
# Needs TIS_URL, TIS_API_KEY, RELEASE, GITHUB_REPOSITORY and GITHUB_SHA (GitHub Actions sets the
# last two); TIS_ENVIRONMENT defaults to production. Fails (exit 22) unless tis answers 201.
set -eu

: "${TIS_URL:?TIS_URL is not set}" "${TIS_API_KEY:?TIS_API_KEY is not set}"
: "${RELEASE:?RELEASE is not set}" "${GITHUB_REPOSITORY:?}" "${GITHUB_SHA:?}"

# The values are identifiers (owner/name, hex, tags): no quotes or backslashes to escape.
# `branch` is sent only when known: an empty string would be stored (and replace a stored branch).
branch=""
if [ -n "${GITHUB_REF_NAME:-}" ]; then branch=$(printf ',"branch":"%s"' "$GITHUB_REF_NAME"); fi
body=$(printf '{"deployment":{"release":"%s","environment":"%s","repository":"%s","commit_sha":"%s"%s}}' \
  "$RELEASE" "${TIS_ENVIRONMENT:-production}" "$GITHUB_REPOSITORY" "$GITHUB_SHA" "$branch")

curl --silent --show-error --fail-with-body --max-time 30 --retry 3 \
  -X POST "$TIS_URL/api/v1/deployments" \
  -H "X-Api-Key: $TIS_API_KEY" \
  -H 'Content-Type: application/json' \
  --data "$body"
echo

#!/usr/bin/env python3
"""Rewrite comments that cite documents outside this repository (issue 13).

Comments may cite only what a reader of the repository can open: its docs/ pages, RFCs and
upstream issues. This script replaces each citation of the spec and research notes that live
outside the repository (interface.md, design-v2.md, spec/cli.md, reliability.md,
render-stack.md, auth-mcp.md, ARCHITECTURE.md, project issue numbers, and the research notes'
test ids such as B-6 or F-1) with a docs page of this repository, an RFC, an upstream issue,
or the reason itself.

Each replacement is (old exact substring, new substring), matched anywhere in any file under
packages/ (node_modules and dist skipped), docs/ and README.md, so it survives files being
moved or split. Re-running is harmless: no new text contains its old text.

Usage: python3 scripts/fix-citations.py [--dry-run]   (from the repository root)
It prints how often each replacement applied, then every remaining occurrence of the
patterns that should be gone. Delete this script once it has run on the merged tree.
"""
import os
import re
import sys

SEC = 'docs/security.md#hostile-input'

REPLACEMENTS = [
    # ---- packages/http-h3 ------------------------------------------------------------------
    ('Render keys are taken exactly where interface.md §5 says (GET:',
     'Render keys are taken exactly where [authentication](../../docs/authentication.md#render-keys) says (GET:'),
    ('The `litho` command. See spec/cli.md: every command except',
     'The `litho` command (docs/cli.md): every command except'),
    # reference.ts and the docs/http-reference.md it generates: the same text in both.
    ("Render keys (interface.md §5): the `dma-api-key` header everywhere",
     "Render keys ([authentication](./authentication.md#render-keys)): the `dma-api-key` header everywhere"),
    ('The synchronous export endpoints of interface.md §4 ("Export endpoints", bearer, the signed-in',
     'The synchronous export endpoints (docs/exports-and-jobs.md; bearer, the signed-in'),
    ('`createLithoApp`: the render service of interface.md (render, bulk, stored files, the',
     '`createLithoApp`: the render service of docs/http-reference.md (render, bulk, stored files, the'),
    ('`@litho/auth-adapters`), mounted at the paths of interface.md §5 when given.',
     '`@litho/auth-adapters`), mounted at the paths of docs/authentication.md ("Orgs and issuers") when given.'),
    ('The bearer endpoints of interface.md §4 (designs, render config, the synchronous exports,',
     'The bearer endpoints of docs/http-reference.md (designs, render config, the synchronous exports,'),
    ('Where each route takes its render key from (interface.md §5), exactly:',
     'Where each route takes its render key from (docs/authentication.md, "Render keys"), exactly:'),
    ('`{ success: false, message }` (interface.md §7), plus a code',
     '`{ success: false, message }` (docs/http-reference.md, Error), plus a code'),
    ('design, analytics and settings endpoints (interface.md §5):',
     'design, analytics and settings endpoints (docs/authentication.md):'),
    ('takes the API base address of\n   * interface.md §5 and its own URI)',
     'takes the API base address of\n   * docs/authentication.md, "Tokens", and its own URI)'),
    ('(interface.md §2 and §4)',
     '(docs/http-reference.md, "Schemas")'),
    # The same files as split on the `routes` branch.
    ('each render-key mode (where interface.md §5 takes the key)',
     'each render-key mode (where docs/authentication.md takes the key)'),
    ('`{base_url}` or `{auth_url}` (interface.md §1).',
     '`{base_url}` or `{auth_url}` (docs/http-reference.md).'),
    ("designs (interface.md §4, bearer `read`)",
     "designs (docs/http-reference.md, bearer `read`)"),
    ("designs (interface.md §4, bearer `write`)",
     "designs (docs/exports-and-jobs.md, bearer `write`)"),
    ('or for the API base address (interface.md §5).',
     'or for the API base address (docs/authentication.md).'),
    ('The render endpoints of `{render_url}` (interface.md §3), with a render key',
     'The render endpoints of `{render_url}` (docs/http-reference.md), with a render key'),
    ('webhook signing secret (interface.md\n * §4, bearer):',
     'webhook signing secret\n * (docs/http-reference.md, bearer):'),
    ('address (the token of interface.md §5), both this server',
     'address (the API token of docs/authentication.md), both this server'),
    ('relative to the working directory (spec/cli.md). */',
     'relative to the working directory (docs/cli.md). */'),
    # http-h3 tests
    ("filled in the way a person would (cli.md: `Email`,",
     "filled in the way a person would (docs/connecting-a-client.md: `Email`,"),
    ('// The bearer endpoints of interface.md §4 (designs, render config, usage analytics, API keys)',
     '// The bearer endpoints of docs/http-reference.md (designs, render config, usage analytics, API keys)'),
    ('from the built-in authorization server (interface.md §5):\n// every clause of the spec, the errors of §7 and the limits of §8, and CORS for browsers.',
     'from the built-in authorization server (docs/authentication.md):\n// every documented behaviour, their errors and limits, and CORS for browsers.'),
    ('/** A GET render with a render key in the query (interface.md §5), as an image tag would do it. */',
     '/** A GET render with a render key in the query (docs/authentication.md), as an image tag would do it. */'),
    ('// The synchronous export endpoints of interface.md §4 ("Export endpoints", bearer, signed-in',
     '// The synchronous export endpoints (docs/exports-and-jobs.md; bearer, signed-in'),
    ('with real access tokens; the errors of §7 and the metering of §8',
     'with real access tokens; their errors and metering'),
    ("describe('draft (interface.md §4: owner only; ignored without a draft)'",
     "describe('draft (owner only; ignored without a draft)'"),
    ("describe('bad input (§7): 400 or 404, never metered'",
     "describe('bad input: 400 or 404, never metered'"),
    ("describe('bearer auth (§5) and CORS'",
     "describe('bearer auth and CORS'"),
    ("describe('metering (§7, §8): refunded on failure, 429 when used up'",
     "describe('metering: refunded on failure, 429 when used up'"),
    ('// Durable export jobs (interface.md §4 export/jobs, GET /analytics/exports/{exportId}, §6 events):',
     '// Durable export jobs (docs/exports-and-jobs.md: export/jobs, GET /analytics/exports/{exportId}, webhooks):'),
    ('// `litho serve` as a process (spec/cli.md):',
     '// `litho serve` as a process (docs/serve.md):'),
    ('end to end (interface.md §5 bearer token, auth-mcp.md §3.4):',
     'end to end (docs/authentication.md, docs/security.md#oauth):'),
    ('one S3 bucket (ARCHITECTURE.md, "scale-out"):',
     'one S3 bucket (docs/serve.md, "More than one instance"):'),
    ('Sign-in cannot starve the server (issue 21 §1):',
     'Sign-in cannot starve the server (docs/security.md):'),
    ('// The render endpoints of interface.md §4 (GET and POST {render_url}/v1/{design_id}), render-key\n// auth of §5, the errors of §7 and the limits of §8,',
     '// The render endpoints (docs/http-reference.md: GET and POST {render_url}/v1/{design_id}), render-key\n// auth, their errors and limits,'),
    ("describe('render parameters (§4 shared query parameters, §8 limits)'",
     "describe('render parameters (shared query parameters, limits)'"),
    ("describe('render-key auth (§5) and not found (§7)'",
     "describe('render-key auth and not found'"),
    ("describe('metering (§8) and the quota error (§2, §7)'",
     "describe('metering and the quota error'"),
    ('// POST {render_url}/bulk (interface.md §4 bulk, §5 render key, §7 errors, §8 limits).',
     '// POST {render_url}/bulk (docs/http-reference.md): render key, errors, limits, all or nothing.'),
    ("describe('audiences: the token of interface.md §5 (resource = the API base address)",
     "describe('audiences: the API token (resource = the API base address)"),
    ('// Sign-out (issue 12 §6):',
     '// Sign-out (docs/authentication.md):'),
    ("// The sign-in form's limits (issue 21 §1):",
     "// The sign-in form's limits (docs/security.md):"),
    ('// Smaller findings of the outside probe (issue 21 §5), each named after what it stops:',
     '// Smaller findings of an outside security probe, each named after what it stops:'),

    # ---- packages/testing --------------------------------------------------------------------
    ('Reference designs: the benchmark set of issue #2 and render-stack.md (a 1080x1080 social',
     'Reference designs: the benchmark set of docs/benchmarks.md (a 1080x1080 social'),
    (' * The 1080x1080 reference card of render-stack.md: a 135° gradient background, a',
     ' * The 1080x1080 reference card of docs/benchmarks.md: a 135° gradient background, a'),
    ('must FAIL the concurrency cases: the control of reliability.md\n// Q-1, reproducing hono-rate-limiter PR #68',
     'must FAIL the concurrency cases, as the\n// racy store of hono-rate-limiter PR #68 did'),

    # ---- packages/core: signing, index, design -----------------------------------------------
    ('rotation, server time only. reliability.md §5 is the design.',
     'rotation, server time only. docs/signed-urls.md describes the design.'),
    ('7 days, as S3 and GCS (interface.md: expiresIn ≤ 10080 min). */',
     '7 days, as S3 and GCS (`expiresIn` ≤ 10080 min, docs/signed-urls.md). */'),
    ('start rather than sign with it (reliability.md F-8). Never echo the secret.',
     'start rather than sign with it (docs/security.md#keys). Never echo the secret.'),
    ('// The bearer operations: designs, usage analytics, render keys (interface.md §4)',
     '// The bearer operations: designs, usage analytics, render keys (docs/http-reference.md)'),
    ('// The synchronous export operations (interface.md §4, "Export endpoints")',
     '// The synchronous export operations (docs/exports-and-jobs.md)'),
    ('extra output sizes of one design (spec: design-v2.md, "DesignDocument").',
     'extra output sizes of one design (docs/overrides-and-variations.md, "Variations").'),
    ('Render-time overrides of dynamic fields (spec: design-v2.md, "Dynamic fields and\n * overrides").',
     'Render-time overrides of dynamic fields (docs/overrides-and-variations.md,\n * "Overrides").'),
    ('never overrides (interface.md §4), e.g. `format`. */',
     'never overrides (docs/http-reference.md), e.g. `format`. */'),
    ('the JSON Schema, the design guide and the docs. See spec/design-v2.md; the fields it\n * names are never renamed or dropped here, only added to.',
     'the JSON Schema, the design guide and docs/design-document.md. Fields of version 2 are\n * never renamed or dropped here, only added to: stored documents must keep validating.'),
    ('/** Largest output width or height, in pixels (spec: up to 4096x4096). */',
     '/** Largest output width or height, in pixels (docs/design-document.md: up to 4096x4096). */'),
    ('depth would let a document exhaust the stack (reliability.md B-10); real templates',
     'depth would let a document exhaust the stack (' + SEC + '); real templates'),
    ('when a component does not set one (spec: design-v2.md). */',
     'when a component does not set one (docs/overrides-and-variations.md). */'),
    ('`data.pure` and `data.flatten` (spec: design-v2.md, "Dynamic fields and overrides").',
     '`data.pure` and `data.flatten` (docs/overrides-and-variations.md, "Dynamic fields").'),
    ('// (packages/core/src/design/schema.ts, spec design-v2.md), mostly valid',
     '// (packages/core/src/design/schema.ts, docs/design-document.md), mostly valid'),
    ('a long one is the known quadratic NUMERIC pattern (issue 21 §2), fixed elsewhere.',
     'a long one is the known quadratic NUMERIC pattern (docs/security.md), fixed elsewhere.'),

    # ---- packages/core: quota and services ----------------------------------------------------
    ('(exports always refund a\n * failure; interface.md §7).',
     '(exports always refund a\n * failure; docs/quotas-and-plans.md, "What counts as a render").'),
    ('/** The body of a 429 (interface.md §2, QuotaError). */',
     '/** The body of a 429 (docs/http-reference.md, QuotaError). */'),
    ('Plans and their monthly quotas (interface.md §8).',
     'Plans and their monthly quotas (docs/quotas-and-plans.md).'),
    ('The parameters of the render and bulk operations (interface.md §4, §8) as zod schemas:',
     'The parameters of the render and bulk operations (docs/http-reference.md) as zod schemas:'),
    ('of the render endpoints on the same address (interface.md leaves it open).',
     'of the render endpoints on the same address.'),
    ('/** The 202 body (interface.md §2, export job acknowledgement). */',
     '/** The 202 body (docs/http-reference.md, ExportJobAck). */'),
    ('page-size schema shared by the lists (interface.md §8: `$limit` 1-100, default 10).',
     'page-size schema shared by the lists (docs/http-reference.md: `$limit` 1-100, default 10).'),
    ('The design endpoints (interface.md §4, bearer): the account',
     'The design endpoints (docs/http-reference.md, bearer): the account'),
    ('(design-v2.md, "Design record"), and a design',
     '(docs/http-reference.md, Design), and a design'),
    ('An item of the design list (interface.md §2, DesignSummary).',
     'An item of the design list (docs/http-reference.md, DesignSummary).'),
    ('A page of the design list (interface.md §2, PaginatedDesigns).',
     'A page of the design list (docs/http-reference.md, PaginatedDesigns).'),
    ('A design record (design-v2.md, "Design record"; same shape as MCP `get_design`).',
     'A design record (docs/http-reference.md, Design; same shape as MCP `get_design`).'),
    ("A design's render configuration (interface.md §2, RenderConfig).",
     "A design's render configuration (docs/http-reference.md, RenderConfig)."),
    ('`/export/signed-url` (interface.md §4, "Export endpoints"), transport-free.',
     '`/export/signed-url` (docs/exports-and-jobs.md), transport-free.'),
    ('refunded exactly\n * once (interface.md §7, §8).',
     'refunded exactly\n * once (docs/exports-and-jobs.md, "Metering and refunds").'),
    ('neither the query nor the body names one (interface.md §4). */',
     'neither the query nor the body names one (docs/exports-and-jobs.md). */'),
    ('the rest is applied (interface.md §4), so a component keyed',
     'the rest is applied (docs/http-reference.md), so a component keyed'),
    ('(designs, analytics, keys: interface.md §4) run over',
     '(designs, analytics, keys: docs/http-reference.md) run over'),
    ('the caller received nothing, as with exports (interface.md §7).',
     'the caller received nothing, as with exports (docs/quotas-and-plans.md).'),
    ('/** The JSON render result of `hosted` and `signed` delivery (interface.md §2). */',
     '/** The JSON render result of `hosted` and `signed` delivery (docs/http-reference.md, RenderResult). */'),
    ('managed under `/settings/api-keys` (interface.md §4 and §5,\n * bearer)',
     'managed under `/settings/api-keys` (docs/authentication.md,\n * "Render keys"; bearer)'),
    ('An item of the key list (interface.md §2, ApiKey):',
     'An item of the key list (docs/http-reference.md, ApiKey):'),
    ('/** One row of a bulk response (interface.md §4, bulk). */',
     '/** One row of a bulk response (docs/http-reference.md, BulkResultRow). */'),
    ('`GET /analytics/api` (interface.md §4, bearer):',
     '`GET /analytics/api` (bearer; docs/authentication.md):'),
    ('(the `/designs/v2/{id}` record of interface.md, plus its owner)',
     '(the `/designs/v2/{id}` record of docs/http-reference.md, plus its owner)'),

    # ---- packages/core: webhooks ---------------------------------------------------------------
    ('8-attempt form Svix runs (reliability.md §3.1, §3.2).',
     '8-attempt form Svix runs (docs/webhooks.md, "Retry schedule").'),
    ('/** Random bytes in a new secret (the spec allows 24 to 64). */',
     '/** Random bytes in a new secret (the Standard Webhooks spec allows 24 to 64). */'),
    ('// form (reliability.md §3.1, §3.2, W-3).',
     '// form (docs/webhooks.md, "Retry schedule").'),
    ("// the spec's 24-byte example",
     "// Standard Webhooks' 24-byte example"),
    ('(the cross-implementation check,\n// reliability.md W-1), and the network rules (W-4, W-5, W-7) are checked',
     '(the cross-implementation check),\n// and the network rules of docs/webhooks.md (no redirects, 15 s, no internal addresses) are checked'),
    ('(independent check, and the spec vector)',
     '(independent check, and the Standard Webhooks vector)'),

    # ---- packages/core: render ------------------------------------------------------------------
    ('// Let resvg-js free its native buffers before the next task (render-stack.md §6).',
     '// Let resvg-js free its native buffers before the next task (thx/resvg-js#216).'),
    ('which doubles its cost\n *   in resvg (render-stack.md §8).',
     'which doubles its cost\n *   in resvg (docs/benchmarks.md).'),
    ('Rewrites satori\'s SVG where svg-to-pdfkit reads it differently from resvg\n * (render-stack.md, PDF).',
     'Rewrites satori\'s SVG where svg-to-pdfkit reads it differently from resvg\n * (docs/benchmarks.md).'),
    ('// (render-stack.md §6): without this, RSS grows ~6 MB per render in a tight loop.',
     '// (thx/resvg-js#216): without this, RSS grows ~6 MB per render in a tight loop.'),
    ('by Buffer identity (render-stack.md §3: a fresh Buffer costs 9-120 ms per call).',
     'by Buffer identity (a fresh Buffer costs 9-120 ms per call: docs/benchmarks.md).'),
    ('SVG → pixels (resvg) → PNG, JPEG or WebP. Following render-stack.md: resvg never scans',
     'SVG → pixels (resvg) → PNG, JPEG or WebP. As measured in docs/benchmarks.md: resvg never scans'),
    ("// The spec's quality applies to JPEG only;",
     "// `quality` applies to JPEG only (docs/http-reference.md);"),
    ('no design needs a larger vector file (reliability.md B-8).',
     'no design needs a larger vector file (' + SEC + ').'),
    ('a string given to sharp() is a filesystem path (reliability.md B-6).',
     'a string given to sharp() is a filesystem path (' + SEC + ').'),
    ('rather than rendering a half-grey image (B-4).',
     'rather than rendering a half-grey image.'),
    ('multiplies memory by the frame count (B-3).',
     'multiplies memory by the frame count.'),
    ('SVG never needs one (B-9). librsvg',
     'SVG never needs one. librsvg'),
    ('/** The limits used when none are given (reliability.md §0). */\nexport const DEFAULT_IMAGE_LIMITS',
     '/** The limits used when none are given (docs/fonts-and-images.md, "Limits for remote images"). */\nexport const DEFAULT_IMAGE_LIMITS'),
    ('/** The limits used when none are given (reliability.md §0). */\nexport const DEFAULT_FETCH_LIMITS',
     '/** The limits used when none are given (docs/fonts-and-images.md, "Limits for remote images"). */\nexport const DEFAULT_FETCH_LIMITS'),
    ('a small gzip body can expand without bound (F-5).',
     'a small gzip body can expand without bound.'),
    ('// reliability.md §0: tiny-skia (resvg) misbehaves above ~8,000 px (resvg #570)',
     '// tiny-skia (resvg) misbehaves above ~8,000 px (resvg #570)'),
    ('were not hardened against hostile input (reliability.md B-5).',
     'were not hardened against hostile input (' + SEC + ').'),

    # ---- packages/core: tests and bench -----------------------------------------------------
    ('// Literal addresses no outbound request may reach (reliability.md F-1):',
     '// Literal addresses no outbound request may reach (' + SEC + '):'),
    (" * B-6: strings that name local files never reach",
     " * Strings that name local files never reach"),
    ("describe('image loader › B-6 local file strings'",
     "describe('image loader › local file strings'"),
    ("describe('fetchRemote › F-1 literal addresses and schemes'",
     "describe('fetchRemote › literal addresses and schemes'"),
    ('// Every literal form from reliability.md F-1. Ports are irrelevant',
     '// Every literal form of ' + SEC + '. Ports are irrelevant'),
    ("describe('fetchRemote › F-2 hostnames resolving to blocked addresses'",
     "describe('fetchRemote › hostnames resolving to blocked addresses'"),
    ("describe('fetchRemote › F-3 redirects'",
     "describe('fetchRemote › redirects'"),
    ("describe('fetchRemote › F-5 size enforced while streaming'",
     "describe('fetchRemote › size enforced while streaming'"),
    ("describe('fetchRemote › F-6 timeouts and failures'",
     "describe('fetchRemote › timeouts and failures'"),
    ('/** B-1: a valid PNG header claiming 65535×65535 RGB',
     '/** A valid PNG header claiming 65535×65535 RGB'),
    ("it('F-7: HTML served as image/png is unsupported_format'",
     "it('HTML served as image/png is unsupported_format'"),
    ("it('F-7: an HTML page names its declared type'",
     "it('an HTML page names its declared type'"),
    ("it('B-5: TIFF and PDF bytes are refused before sharp sees them'",
     "it('TIFF and PDF bytes are refused before sharp sees them'"),
    ("it('B-1: a PNG whose header claims 65535×65535 is refused from metadata, fast'",
     "it('a PNG whose header claims 65535×65535 is refused from metadata, fast'"),
    ("it('B-2: a flat image over a (test-sized) pixel limit is refused;",
     "it('a flat image over a (test-sized) pixel limit is refused;"),
    ("it('B-4: a truncated JPEG is invalid_image'",
     "it('a truncated JPEG is invalid_image'"),
    ("it('B-9: an SVG with a DOCTYPE is refused'",
     "it('an SVG with a DOCTYPE is refused'"),
    ("it('signing › every tampered part is refused (S-1)'",
     "it('signing › every tampered part is refused'"),
    ("it('signing › expiry is exact, with the documented leeway (S-2)'",
     "it('signing › expiry is exact, with the documented leeway'"),
    ("it('signing › lifetimes up to 7 days are signed; longer ones are refused (S-3)'",
     "it('signing › lifetimes up to 7 days are signed; longer ones are refused'"),
    ("removing one revokes it (S-4)'",
     "removing one revokes it'"),
    ("it('signing › weak or malformed keys refuse to start (F-8)'",
     "it('signing › weak or malformed keys refuse to start'"),
    ("it('signing › only canonical paths are signed (S-5)'",
     "it('signing › only canonical paths are signed'"),
    ('// render-stack.md timed at 18.4 ms (resvg render only).',
     '// took 18.4 ms when the stack was chosen (resvg render only; docs/benchmarks.md).'),
    ("gradient in ${median.toFixed(1)} ms (render-stack.md's machine: 18.4 ms)",
     "gradient in ${median.toFixed(1)} ms (18.4 ms when the stack was chosen)"),
    ('// The targets of issue #2, on a 2-core machine.',
     '// The targets of the first release (docs/benchmarks.md), on a 2-core machine.'),

    # ---- packages/auth-adapters -------------------------------------------------------------
    ('the credentials of the render endpoints (interface.md §5).',
     'the credentials of the render endpoints (docs/authentication.md).'),
    ('charged before any password is hashed (issue 21 §1):',
     'charged before any password is hashed (docs/security.md):'),
    ("work without JavaScript (cli.md: inputs labelled `Email` and `Password`",
     "work without JavaScript (docs/connecting-a-client.md: inputs labelled `Email` and `Password`"),
    ('adapter mounts them at the paths of interface.md. Signing',
     'adapter mounts them at the paths of docs/http-reference.md. Signing'),
    ('/** The paths of the authorization server, relative to `{auth_url}` (interface.md §5). */',
     '/** The paths of the authorization server, relative to `{auth_url}` (docs/authentication.md). */'),
    ('/** The `{auth_url}` of interface.md, no trailing slash',
     '/** The `{auth_url}` of docs/http-reference.md, no trailing slash'),

    # ---- Fallbacks for text edited since this list was written (after the specific ones) ----
    ('(interface.md §5)', '(docs/authentication.md)'),
    ('(interface.md §4)', '(docs/http-reference.md)'),
    ('(interface.md §7)', '(docs/http-reference.md)'),
    ('(interface.md §8)', '(docs/quotas-and-plans.md)'),
    ('(interface.md §2, ', '(docs/http-reference.md, '),
    ('(interface.md §4, ', '(docs/http-reference.md, '),
    ('spec/cli.md', 'docs/cli.md'),
    ('(spec: design-v2.md)', '(docs/design-document.md)'),
    ('spec/design-v2.md', 'docs/design-document.md'),
    ('(reliability.md §0)', '(docs/fonts-and-images.md)'),
    ('(render-stack.md §6)', '(thx/resvg-js#216)'),
]

# What should be gone afterwards. A hit here is either a citation the list above missed, or
# one of the known exceptions in ALLOWED.
FORBIDDEN = re.compile(
    r'interface\.md|interface spec|design-v2|spec/cli|(?<![/\[])cli\.md|reliability\.md|render-stack'
    r'|auth-mcp|aesthetics|ARCHITECTURE|STYLE\.md|research/|issue #\d+|issue \d+'
    r'|(?<!RFC \d{4} )(?<!Fonts 4 )§\s?\d|\b[BFWQSKO]-\d+\b|\bthe spec\b|\bspec:'
)
RFC_AT_END = re.compile(r'RFC \d{3,4}\s*$')
ALLOWED = [
    # A user's own tracker, in an example skip list of a storage adapter: not our citation.
    ("docs/writing-a-storage-adapter.md", "issue #17"),
    ("docs/writing-a-storage-adapter.md", "issue #31"),
]
EXTENSIONS = ('.ts', '.mts', '.mjs', '.js', '.md')


def files():
    for root in ('packages', 'docs'):
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d not in ('node_modules', 'dist', '.turbo'))
            for name in sorted(filenames):
                if name.endswith(EXTENSIONS):
                    yield os.path.join(dirpath, name)
    if os.path.exists('README.md'):
        yield 'README.md'


def main():
    dry = '--dry-run' in sys.argv
    if not os.path.isdir('packages'):
        sys.exit('run from the repository root')
    for old, new in REPLACEMENTS:
        if old in new:
            sys.exit(f'not idempotent: {old!r} is inside its replacement')
    counts = [0] * len(REPLACEMENTS)
    changed = 0
    remaining = []
    for path in files():
        with open(path, encoding='utf-8') as f:
            text = f.read()
        before = text
        for i, (old, new) in enumerate(REPLACEMENTS):
            n = text.count(old)
            if n:
                counts[i] += n
                text = text.replace(old, new)
        if text != before:
            changed += 1
            if not dry:
                with open(path, 'w', encoding='utf-8') as f:
                    f.write(text)
        lines = text.split('\n')
        for number, line in enumerate(lines, 1):
            for match in FORBIDDEN.finditer(line):
                if any(path.endswith(p) and match.group(0) in a for p, a in ALLOWED):
                    continue
                # "RFC 6750\n * §3": an RFC section wrapped onto the next line.
                if match.group(0).startswith('§') and number > 1 and RFC_AT_END.search(lines[number - 2]) \
                        and not line[:match.start()].strip(' */'):
                    continue
                remaining.append(f'{path}:{number}: {line.strip()[:160]}')
                break
    for (old, _), n in zip(REPLACEMENTS, counts):
        first = old.split('\n')[0]
        print(f'{n:3d}  {first[:100]}')
    print(f'{sum(counts)} replacements in {changed} files' + (' (dry run, nothing written)' if dry else ''))
    print(f'\n{len(remaining)} remaining occurrences' + (':' if remaining else '.'))
    for r in remaining:
        print('  ' + r)


if __name__ == '__main__':
    main()

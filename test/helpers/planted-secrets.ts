// A planted-secret corpus: fake secrets of many kinds, each made from its vendor's published
// format with a random body (seeded, so every run plants the same ones), written into the places a
// Claude Code log carries text: prose, Bash input and output, Read results of .env / JSON / YAML
// files, Write and Edit inputs, toolUseResult sidecars, URLs and JSON inside assistant text.
// Built at run time, so the repository holds no string a secret scanner (or a push guard) flags.

import { seededRandom } from '../../bench/mutate.js';

export type Rand = () => number;

/** mulberry32 (shared with the fuzz bench): small, fast and the same on every machine. */
export const seeded: (seed: number) => Rand = seededRandom;

export const CHARS = {
  an: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  up: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  upd: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  lo: 'abcdefghijklmnopqrstuvwxyz',
  lod: 'abcdefghijklmnopqrstuvwxyz0123456789',
  hex: '0123456789abcdef',
  dig: '0123456789',
  b64: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  url: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-',
  pw: 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789!#%^*_-+=',
  b32: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567',
  bech: 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L',
} as const;

export type Charset = keyof typeof CHARS;

export function randomString(r: Rand, n: number, set: Charset = 'an'): string {
  const chars = CHARS[set];
  let out = '';
  for (let i = 0; i < n; i++) out += chars[Math.floor(r() * chars.length)];
  return out;
}

export type Position =
  | 'user-prose'
  | 'assistant-prose'
  | 'bash-input'
  | 'bash-output'
  | 'read-env'
  | 'read-json'
  | 'read-yaml'
  | 'write-input'
  | 'edit-input'
  | 'sidecar'
  | 'url'
  | 'json-in-assistant'
  | 'tool-input-field';

export const POSITIONS: Position[] = [
  'user-prose',
  'assistant-prose',
  'bash-input',
  'bash-output',
  'read-env',
  'read-json',
  'read-yaml',
  'write-input',
  'edit-input',
  'sidecar',
  'url',
  'json-in-assistant',
  'tool-input-field',
];

export interface PlantedKind {
  id: string;
  /** The secret as it is written, and the random parts of it that must not survive. */
  make: (r: Rand) => { secret: string; body: string[] };
  /** Names it goes by in a .env line, a JSON config and a YAML file. */
  env: string;
  json: string;
  yaml: string;
  /** Recognisable alone (a vendor prefix, a URL, a key block), not only beside its name. */
  standalone?: boolean;
  /** Spans lines (key blocks): planted where a file or a paste carries it, not in one-line positions. */
  multiline?: boolean;
  /** A URL holding the credential itself. */
  isUrl?: boolean;
  skip?: Position[];
}

const t = (template: string) => (r: Rand) => {
  const parts: string[] = [];
  const secret = template.replace(/\{(\w+):(\d+)\}/g, (_, set: string, n: string) => {
    const part = randomString(r, Number(n), set as Charset);
    parts.push(part);
    return part;
  });
  // What must vanish: every random run of 8 or more characters.
  return { secret, body: parts.filter((p) => p.length >= 8).length > 0 ? parts.filter((p) => p.length >= 8) : [secret] };
};

const token = (id: string, template: string, env: string, json: string, yaml = env.toLowerCase()): PlantedKind => ({ id, make: t(template), env, json, yaml, standalone: true });
const keyed = (id: string, template: string, env: string, json: string, yaml = env.toLowerCase()): PlantedKind => ({ id, make: t(template), env, json, yaml });
const url = (id: string, template: string, env: string, json: string): PlantedKind => ({ id, make: t(template), env, json, yaml: env.toLowerCase(), standalone: true, isUrl: true, skip: ['url'] });

function keyBlock(kind: string, lines: number, r: Rand, tail = ''): { secret: string; body: string[] } {
  const body = Array.from({ length: lines }, () => randomString(r, 64, 'b64'));
  const last = randomString(r, 20, 'b64');
  const begin = kind === 'PGP' ? '-----BEGIN PGP PRIVATE KEY BLOCK-----' : `-----BEGIN ${kind}PRIVATE KEY-----`;
  const end = kind === 'PGP' ? '-----END PGP PRIVATE KEY BLOCK-----' : `-----END ${kind}PRIVATE KEY-----`;
  const head = kind === 'PGP' ? [begin, 'Version: GnuPG v2', ''] : [begin];
  return { secret: [...head, ...body, last + tail, end].join('\n'), body: [...body, last] };
}

const block = (id: string, kind: string, env: string): PlantedKind => ({
  id,
  make: (r) => keyBlock(kind, 6, r, kind === 'PGP' ? `\n=${randomString(r, 4, 'b64')}` : ''),
  env,
  json: 'privateKey',
  yaml: 'private_key',
  standalone: true,
  multiline: true,
});

export const PLANTED_KINDS: PlantedKind[] = [
  token('aws-access-key', 'AKIA{b32:16}', 'AWS_ACCESS_KEY_ID', 'accessKeyId', 'aws_access_key_id'),
  token('aws-session-key', 'ASIA{b32:16}', 'AWS_ACCESS_KEY_ID', 'accessKeyId', 'aws_access_key_id'),
  keyed('aws-secret-key', '{b64:40}', 'AWS_SECRET_ACCESS_KEY', 'secretAccessKey', 'aws_secret_access_key'),
  token('github-pat', 'ghp_{an:36}', 'GITHUB_TOKEN', 'githubToken'),
  token('github-oauth', 'gho_{an:36}', 'GH_OAUTH_TOKEN', 'oauthToken'),
  token('github-app', 'ghs_{an:36}', 'GH_APP_TOKEN', 'installationToken'),
  token('github-refresh', 'ghr_{an:36}', 'GH_REFRESH_TOKEN', 'refreshToken'),
  token('github-fine-grained', 'github_pat_{an:22}_{an:59}', 'GH_TOKEN', 'ghToken'),
  token('gitlab-pat', 'glpat-{url:20}', 'GITLAB_TOKEN', 'gitlabToken'),
  token('gitlab-runner', 'glrt-{url:20}', 'RUNNER_TOKEN', 'runnerToken'),
  token('npm-token', 'npm_{an:36}', 'NPM_TOKEN', 'npmToken'),
  token('huggingface', 'hf_{an:34}', 'HF_TOKEN', 'hfToken'),
  token('sendgrid', 'SG.{url:22}.{url:43}', 'SENDGRID_API_KEY', 'sendgridApiKey'),
  token('digitalocean-pat', 'dop_v1_{hex:64}', 'DIGITALOCEAN_TOKEN', 'doToken'),
  token('digitalocean-oauth', 'doo_v1_{hex:64}', 'DO_OAUTH_TOKEN', 'doOauthToken'),
  token('linear', 'lin_api_{an:40}', 'LINEAR_API_KEY', 'linearApiKey'),
  token('slack-bot', 'xoxb-{dig:11}-{dig:13}-{an:24}', 'SLACK_BOT_TOKEN', 'slackBotToken'),
  token('slack-user', 'xoxp-{dig:11}-{dig:11}-{dig:13}-{hex:32}', 'SLACK_USER_TOKEN', 'slackUserToken'),
  token('slack-app', 'xapp-1-A{upd:10}-{dig:13}-{hex:64}', 'SLACK_APP_TOKEN', 'slackAppToken'),
  url('slack-webhook', 'https://hooks.slack.com/services/T{upd:10}/B{upd:10}/{an:24}', 'SLACK_WEBHOOK_URL', 'slackWebhook'),
  token('stripe-secret', 'sk_live_{an:99}', 'STRIPE_SECRET_KEY', 'stripeSecretKey'),
  token('stripe-restricted', 'rk_live_{an:99}', 'STRIPE_RESTRICTED_KEY', 'stripeKey'),
  token('stripe-test', 'sk_test_{an:99}', 'STRIPE_TEST_KEY', 'stripeTestKey'),
  token('openai-project', 'sk-proj-{url:156}', 'OPENAI_API_KEY', 'openaiApiKey'),
  token('openai-legacy', 'sk-{an:20}T3BlbkFJ{an:20}', 'OPENAI_KEY', 'openAiKey'),
  token('openai-service', 'sk-svcacct-{url:120}', 'OPENAI_SERVICE_KEY', 'serviceKey'),
  token('anthropic-api', 'sk-ant-api03-{url:93}AA', 'ANTHROPIC_API_KEY', 'anthropicApiKey'),
  token('anthropic-admin', 'sk-ant-admin01-{url:93}AA', 'ANTHROPIC_ADMIN_KEY', 'adminKey'),
  token('azure-storage', 'DefaultEndpointsProtocol=https;AccountName=acme{lod:6};AccountKey={b64:86}==;EndpointSuffix=core.windows.net', 'AZURE_STORAGE_CONNECTION_STRING', 'storageConnectionString'),
  keyed('azure-client-secret', '{an:3}8Q~{url:31}', 'AZURE_CLIENT_SECRET', 'clientSecret'),
  url('azure-sas', 'https://acme.blob.core.windows.net/data?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2030-01-01T00:00:00Z&sig={b64:43}%3D', 'AZURE_SAS_URL', 'sasUrl'),
  url('discord-webhook', 'https://discord.com/api/webhooks/{dig:18}/{url:68}', 'DISCORD_WEBHOOK_URL', 'discordWebhook'),
  token('discord-bot', 'M{an:23}.{url:6}.{url:38}', 'DISCORD_BOT_TOKEN', 'discordToken'),
  url('redis-url', 'redis://:{an:24}@cache.internal:6379/0', 'REDIS_URL', 'redisUrl'),
  url('postgres-url', 'postgres://app:{an:20}@db.internal:5432/app', 'DATABASE_URL', 'databaseUrl'),
  url('mongodb-url', 'mongodb+srv://admin:{an:16}@cluster0.ab1cd.mongodb.net/prod', 'MONGODB_URI', 'mongoUri'),
  url('mysql-url', 'mysql://root:{pw:18}@10.0.0.5:3306/shop', 'MYSQL_URL', 'mysqlUrl'),
  url('amqp-url', 'amqps://worker:{an:22}@queue.example.net/vhost', 'AMQP_URL', 'amqpUrl'),
  url('https-basic-url', 'https://deploy:{an:32}@git.example.com/acme/app.git', 'GIT_REMOTE', 'remoteUrl'),
  url('url-query-token', 'https://api.example.com/v2/export?format=csv&access_token={url:40}', 'EXPORT_URL', 'exportUrl'),
  token('jwt', 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ{url:60}.{url:43}', 'SESSION_JWT', 'idToken'),
  block('rsa-private-key', 'RSA ', 'RSA_PRIVATE_KEY'),
  block('openssh-private-key', 'OPENSSH ', 'SSH_PRIVATE_KEY'),
  block('ec-private-key', 'EC ', 'EC_PRIVATE_KEY'),
  block('pkcs8-private-key', '', 'PRIVATE_KEY'),
  block('encrypted-private-key', 'ENCRYPTED ', 'SIGNING_KEY'),
  block('pgp-private-key', 'PGP', 'PGP_PRIVATE_KEY'),
  {
    id: 'gcp-service-account',
    make: (r) => {
      const keyId = randomString(r, 40, 'hex');
      const key = keyBlock('', 8, r);
      const json = JSON.stringify(
        {
          type: 'service_account',
          project_id: 'acme-prod',
          private_key_id: keyId,
          private_key: `${key.secret}\n`,
          client_email: 'deploy@acme-prod.iam.gserviceaccount.com',
          client_id: randomString(r, 21, 'dig'),
        },
        null,
        2,
      );
      return { secret: json, body: [keyId, ...key.body] };
    },
    env: 'GOOGLE_CREDENTIALS',
    json: 'credentials',
    yaml: 'credentials',
    standalone: true,
    multiline: true,
  },
  token('google-api-key', 'AIza{url:35}', 'GOOGLE_API_KEY', 'googleApiKey'),
  token('google-oauth-secret', 'GOCSPX-{url:28}', 'GOOGLE_CLIENT_SECRET', 'googleClientSecret'),
  token('twilio-api-key', 'SK{hex:32}', 'TWILIO_API_KEY', 'twilioApiKey'),
  keyed('twilio-auth-token', '{hex:32}', 'TWILIO_AUTH_TOKEN', 'twilioAuthToken'),
  token('mailgun', 'key-{hex:32}', 'MAILGUN_API_KEY', 'mailgunKey'),
  token('mailchimp', '{hex:32}-us{dig:2}', 'MAILCHIMP_API_KEY', 'mailchimpKey'),
  token('shopify-access', 'shpat_{hex:32}', 'SHOPIFY_ACCESS_TOKEN', 'shopifyToken'),
  token('shopify-shared-secret', 'shpss_{hex:32}', 'SHOPIFY_SHARED_SECRET', 'shopifySecret'),
  token('pypi', 'pypi-AgEIcHlwaS5vcmc{url:70}', 'PYPI_TOKEN', 'pypiToken'),
  token('dockerhub', 'dckr_pat_{url:27}', 'DOCKER_TOKEN', 'dockerToken'),
  token('atlassian', 'ATATT3xFfGF0{url:180}={hex:8}', 'JIRA_API_TOKEN', 'jiraToken'),
  token('notion', 'ntn_{an:46}', 'NOTION_TOKEN', 'notionToken'),
  token('figma', 'figd_{url:40}', 'FIGMA_TOKEN', 'figmaToken'),
  token('grafana-service-account', 'glsa_{an:32}_{hex:8}', 'GRAFANA_TOKEN', 'grafanaToken'),
  token('databricks', 'dapi{hex:32}', 'DATABRICKS_TOKEN', 'databricksToken'),
  token('vault', 'hvs.{url:90}', 'VAULT_TOKEN', 'vaultToken'),
  token('terraform-cloud', '{an:14}.atlasv1.{an:67}', 'TFC_TOKEN', 'tfcToken'),
  token('groq', 'gsk_{an:52}', 'GROQ_API_KEY', 'groqApiKey'),
  token('replicate', 'r8_{an:37}', 'REPLICATE_API_TOKEN', 'replicateToken'),
  token('perplexity', 'pplx-{an:48}', 'PERPLEXITY_API_KEY', 'perplexityKey'),
  token('xai', 'xai-{an:80}', 'XAI_API_KEY', 'xaiKey'),
  token('postman', 'PMAK-{hex:24}-{hex:34}', 'POSTMAN_API_KEY', 'postmanKey'),
  token('newrelic', 'NRAK-{upd:27}', 'NEW_RELIC_API_KEY', 'newRelicKey'),
  token('pulumi', 'pul-{hex:40}', 'PULUMI_ACCESS_TOKEN', 'pulumiToken'),
  token('supabase', 'sbp_{hex:40}', 'SUPABASE_ACCESS_TOKEN', 'supabaseToken'),
  token('planetscale', 'pscale_tkn_{url:43}', 'PLANETSCALE_TOKEN', 'planetscaleToken'),
  token('doppler', 'dp.pt.{an:43}', 'DOPPLER_TOKEN', 'dopplerToken'),
  token('sentry', 'sntrys_{an:80}', 'SENTRY_AUTH_TOKEN', 'sentryToken'),
  token('age-secret-key', 'AGE-SECRET-KEY-1{bech:58}', 'AGE_KEY', 'ageKey'),
  token('telegram-bot', '{dig:10}:AA{url:33}', 'TELEGRAM_BOT_TOKEN', 'telegramToken'),
  token('square', 'EAAA{url:60}', 'SQUARE_ACCESS_TOKEN', 'squareToken'),
  token('flyio', 'fo1_{url:43}', 'FLY_API_TOKEN', 'flyToken'),
  token('openrouter', 'sk-or-v1-{hex:64}', 'OPENROUTER_API_KEY', 'openrouterKey'),
  token('deepseek', 'sk-{hex:32}', 'DEEPSEEK_API_KEY', 'deepseekKey'),
  token('tavily', 'tvly-{an:32}', 'TAVILY_API_KEY', 'tavilyKey'),
  token('pinecone', 'pcsk_{an:5}_{an:60}', 'PINECONE_API_KEY', 'pineconeKey'),
  token('langsmith', 'lsv2_pt_{hex:32}_{hex:10}', 'LANGSMITH_API_KEY', 'langsmithKey'),
  token('tailscale', 'tskey-auth-{an:11}CNTRL-{an:33}', 'TS_AUTHKEY', 'tailscaleAuthKey'),
  token('resend', 're_{an:8}_{an:24}', 'RESEND_API_KEY', 'resendKey'),
  token('airtable', 'pat{an:14}.{hex:64}', 'AIRTABLE_TOKEN', 'airtableToken'),
  token('sonarqube', 'squ_{hex:40}', 'SONAR_TOKEN', 'sonarToken'),
  token('mapbox-secret', 'sk.eyJ1{url:50}.{url:22}', 'MAPBOX_SECRET_TOKEN', 'mapboxSecret'),
  token('brevo', 'xkeysib-{hex:64}-{an:16}', 'BREVO_API_KEY', 'brevoKey'),
  token('twitter-bearer', 'AAAAAAAAAAAAAAAAAAAAAA{an:90}', 'TWITTER_BEARER_TOKEN', 'twitterBearerToken'),
  keyed('datadog', '{hex:32}', 'DD_API_KEY', 'datadogApiKey', 'dd_api_key'),
  keyed('cloudflare', '{url:40}', 'CLOUDFLARE_API_TOKEN', 'cloudflareApiToken'),
  keyed('heroku', '{hex:8}-{hex:4}-{hex:4}-{hex:4}-{hex:12}', 'HEROKU_API_KEY', 'herokuApiKey'),
  keyed('django-secret', '{pw:50}', 'DJANGO_SECRET_KEY', 'secretKey', 'secret_key'),
  keyed('generic-password', '{pw:16}', 'DB_PASSWORD', 'dbPassword', 'password'),
  keyed('generic-secret', '{an:32}', 'APP_SECRET', 'appSecret', 'app_secret'),
  keyed('generic-api-key', '{an:32}', 'MISTRAL_API_KEY', 'mistralApiKey'),
  keyed('generic-auth-token', '{url:40}', 'AUTH_TOKEN', 'authToken'),
  keyed('basic-auth-header', '{b64:40}', 'AUTHORIZATION_BASIC', 'authorization'),
  keyed('bearer-header', '{url:48}', 'AUTHORIZATION_BEARER', 'authorization'),
  keyed('api-key-header', '{an:40}', 'X_API_KEY', 'xApiKey'),
];

export interface PlantedSecret {
  kind: string;
  position: Position;
  /** Random parts that must not survive redaction. */
  body: string[];
  /** The records (Claude Code log lines) that carry it. */
  records: Record<string, unknown>[];
}

const numbered = (text: string) =>
  text
    .split('\n')
    .map((l, i) => `${String(i + 1).padStart(6)}→${l}`)
    .join('\n');

/** `NAME=value` as each kind is written where a name goes with it. */
function assignment(kind: PlantedKind, secret: string): string {
  if (kind.id === 'basic-auth-header') return `Authorization: Basic ${secret}`;
  if (kind.id === 'bearer-header') return `Authorization: Bearer ${secret}`;
  if (kind.id === 'api-key-header') return `X-API-Key: ${secret}`;
  return `${kind.env}=${secret}`;
}

function yamlValue(kind: PlantedKind, secret: string, r: Rand): string {
  if (kind.multiline) return `|\n    ${secret.split('\n').join('\n    ')}`;
  return r() < 0.5 ? secret : `"${secret}"`;
}

/** What each position looks like for one kind: the records of a small session around it. */
function plant(kind: PlantedKind, position: Position, secret: string, r: Rand): Step[] {
  const one = kind.multiline ? secret : assignment(kind, secret);
  const bare = kind.standalone ? secret : one;
  const envFile = kind.multiline ? `NODE_ENV=production\n${kind.env}="${secret.replace(/\n/g, '\\n')}"\nPORT=3000` : `NODE_ENV=production\n${kind.env}=${secret}\nPORT=3000`;
  const jsonFile = JSON.stringify({ name: 'acme-web', version: '1.4.2', [kind.json]: secret, region: 'eu-west-1' }, null, 2);
  const yamlFile = `app:\n  name: acme-web\n  ${kind.yaml}: ${yamlValue(kind, secret, r)}\n  port: 8080`;
  switch (position) {
    case 'user-prose':
      return [{ user: `The deploy fails with auth errors. Here is what I have: ${bare} - can you check it against the staging config?` }];
    case 'assistant-prose':
      return [
        {
          assistant: kind.multiline
            ? `The key you pasted is:\n${secret}\nIt is still valid; I'll rotate it after the deploy.`
            : `I found ${kind.standalone ? `the credential ${secret}` : `\`${one}\``} in your shell history. Rotate it after the deploy.`,
        },
      ];
    case 'bash-input':
      if (kind.multiline) return [{ tool: 'Bash', input: { command: `cat > /tmp/key.pem <<'EOF'\n${secret}\nEOF\nchmod 600 /tmp/key.pem`, description: 'Write the key' }, result: '' }];
      if (kind.isUrl) return [{ tool: 'Bash', input: { command: `curl -sS "${secret}" | head -5`, description: 'Check the endpoint' }, result: 'ok' }];
      if (kind.id.endsWith('-header')) return [{ tool: 'Bash', input: { command: `curl -sS -H '${one}' https://api.example.com/v1/me`, description: 'Call the API' }, result: '{"id": 42}' }];
      return [{ tool: 'Bash', input: { command: `export ${kind.env}=${secret} && npm run deploy`, description: 'Deploy' }, result: 'deployed' }];
    case 'bash-output':
      if (kind.multiline) return [{ tool: 'Bash', input: { command: 'cat ~/.config/acme/key', description: 'Show the key' }, result: secret }];
      return [
        {
          tool: 'Bash',
          input: { command: 'printenv | sort', description: 'List the environment' },
          result: `HOME=/home/me\n${kind.id.endsWith('-header') ? `${kind.env}=${secret}` : one}\nSHELL=/bin/bash`,
        },
      ];
    case 'read-env':
      return [{ tool: 'Read', input: { file_path: '/home/me/app/.env' }, result: numbered(envFile) }];
    case 'read-json':
      return [{ tool: 'Read', input: { file_path: '/home/me/app/config/production.json' }, result: numbered(jsonFile) }];
    case 'read-yaml':
      return [{ tool: 'Read', input: { file_path: '/home/me/app/config.yml' }, result: numbered(yamlFile) }];
    case 'write-input':
      return [{ tool: 'Write', input: { file_path: '/home/me/app/.env.production', content: `${envFile}\n` }, result: 'File created successfully at: /home/me/app/.env.production' }];
    case 'edit-input':
      return [
        {
          tool: 'Edit',
          input: { file_path: '/home/me/app/config.yml', old_string: `  ${kind.yaml}: TODO`, new_string: `  ${kind.yaml}: ${yamlValue(kind, secret, r)}` },
          result: 'The file has been updated.',
        },
      ];
    case 'sidecar':
      return [
        {
          tool: 'Read',
          input: { file_path: '/home/me/app/.env' },
          result: '(contents shown in the editor)',
          sidecar: { type: 'text', file: { filePath: '/home/me/app/.env', content: envFile, numLines: 3, startLine: 1, totalLines: 3 } },
        },
      ];
    case 'url':
      // In a query a value is percent-encoded ('#' would end the URL, '&' the value).
      return [{ assistant: `The callback fails; the request was https://app.example.com/oauth/callback?state=xyz&token=${encodeURIComponent(secret)}&next=/home - the token is in the query.` }];
    case 'json-in-assistant':
      return [{ assistant: `Here is the corrected config:\n\n\`\`\`json\n${jsonFile}\n\`\`\`\n\nThe region was wrong.` }];
    case 'tool-input-field':
      // A field of a tool's input (an MCP tool taking a credential): its name and value are two JSON strings.
      return [{ tool: 'mcp__deploy__configure', input: { service: 'acme-web', [kind.json]: secret, region: 'eu-west-1' }, result: 'configured' }];
  }
}

export type Step = { user: string } | { assistant: string } | { tool: string; input: Record<string, unknown>; result?: string; sidecar?: Record<string, unknown> };

/** Every kind in every position that fits it, the same on every run for a given seed. */
export function plantedSecrets(seed = 156): { kind: PlantedKind; position: Position; body: string[]; steps: Step[] }[] {
  const r = seeded(seed);
  const out: { kind: PlantedKind; position: Position; body: string[]; steps: Step[] }[] = [];
  for (const kind of PLANTED_KINDS) {
    for (const position of POSITIONS) {
      if (kind.skip?.includes(position)) continue;
      if (kind.multiline && (position === 'url' || position === 'edit-input')) continue;
      if (position === 'url' && (kind.id.endsWith('-header') || kind.id === 'azure-storage')) continue;
      const { secret, body } = kind.make(r);
      out.push({ kind, position, body: position === 'url' ? body.map(encodeURIComponent) : body, steps: plant(kind, position, secret, r) });
    }
  }
  return out;
}

/** True when any run of 10 characters of a random part is still in `text`. */
export function leaks(text: string, body: string[]): boolean {
  for (const part of body) {
    if (part.length <= 10) {
      if (text.includes(part)) return true;
      continue;
    }
    for (let i = 0; i + 10 <= part.length; i++) if (text.includes(part.slice(i, i + 10))) return true;
  }
  return false;
}

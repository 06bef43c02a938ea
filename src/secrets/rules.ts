// What cmv takes for a secret, one entry per judgement, in the manner of gitleaks' rule set: a
// rule runs only on text holding one of its keywords, its pattern finds a candidate, and the
// `secret` group (the whole match when there is none) goes. Vendor formats stand by their shape;
// generic rules (a value after a credential's name) also ask `looksSecret` whether the value is a
// generated secret rather than code or a placeholder. Examples are templates: `{an:36}` is 36
// random letters and digits (test/secrets/rules.test.ts fills them), so this file holds no string
// that a secret scanner would flag.

import type { Strength } from './values.js';

export interface SecretRule {
  id: string;
  /** What the report and the mark call it: `[REDACTED:<kind>]`. */
  kind: string;
  /** Lower-case; the rule runs only on text that holds one. Empty: always runs. */
  keywords: string[];
  /** Global; the named group `secret`, or the whole match, is what goes. */
  pattern: RegExp;
  /** For generic rules: how random the value must be for the name it follows. */
  value?: Strength;
  /** Minimum Shannon entropy (bits per character) of the secret. */
  entropy?: number;
  why: string;
  examples: { yes: string[]; no: string[] };
}

// A token starts and ends where a word would.
const B = String.raw`(?<![A-Za-z0-9_])`;
const E = String.raw`(?![A-Za-z0-9_])`;

const vendor = (id: string, kind: string, keywords: string[], body: string, why: string, yes: string[], no: string[] = [], entropy?: number): SecretRule => ({
  id,
  kind,
  keywords,
  pattern: new RegExp(`${B}${body}${E}`, 'g'),
  entropy,
  why,
  examples: { yes, no },
});

/** Names whose value is a credential, by how much the name promises one (see values.ts). */
const PASSWORD_NAME = String.raw`pass(?:word|wd|phrase)?|pwd|passcode`;
const TOKEN_NAME = String.raw`secret|token|credentials?|auth|api[_.-]?key|apikey|access[_.-]?key(?:[_.-]?id)?|secret[_.-]?key|private[_.-]?key(?:[_.-]?id)?|signing[_.-]?key|encryption[_.-]?key|master[_.-]?key|account[_.-]?key|client[_.-]?key|app[_.-]?key|admin[_.-]?key|service[_.-]?key|license[_.-]?key|session[_.-]?key|auth[_.-]?key|sas|connection[_.-]?string|authorization(?:[_.-]?(?:basic|bearer|header))?`;

/** `NAME = value` in every syntax a log shows: .env, shell, YAML, JSON, TOML, code, headers. */
function assignment(id: string, names: string, strength: Strength, keywords: string[], why: string, yes: string[], no: string[], flags = 'gi'): SecretRule {
  // The name may be a longer identifier ending in one of `names` (DB_PASSWORD, npmToken, X-Api-Key):
  // the pattern starts at the keyword (fast to find), and the engine reads the whole name back from
  // there to leave names of public things (public_key, anon_key: PUBLIC_NAME).
  const name = String.raw`(?<name>${names})`;
  // Quotes may be escaped (JSON held in a JSON string: \"private_key_id\": \"…\").
  const sep = String.raw`(?<sep>\\?["'\`]?\s*(?:=(?!=[=\s]|>)|:=|:|\+=)\s*(?:\[\s*)?\\?["'\`]?)`;
  const value = String.raw`(?<secret>[^\s"'\`,;<>(){}\[\]\\]+)`;
  return { id, kind: strength === 'password' ? 'password' : 'credential', keywords, pattern: new RegExp(`${name}${sep}${value}`, flags), value: strength, why, examples: { yes, no } };
}

/** A name of something meant to be shared, whatever it ends in. */
export const PUBLIC_NAME = /public|publishable|(?:^|[_.-])pub[_.-]|anon|(?:^|[_.-])pk[_.-]/i;

export const SECRET_RULES: SecretRule[] = [
  // Key blocks first: they span lines, and everything between the markers goes, even a truncated block.
  {
    id: 'private-key-block',
    kind: 'private-key',
    keywords: ['-----begin'],
    pattern: /-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
    why: 'PEM and PGP private keys (RSA, EC, OpenSSH, PKCS#8, encrypted, PGP key blocks), to the END marker or the end of the text',
    examples: {
      yes: [
        '-----BEGIN RSA PRIVATE KEY-----\n{b64:64}\n{b64:64}\n-----END RSA PRIVATE KEY-----',
        '-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{b64:64}\n{b64:40}\n-----END PGP PRIVATE KEY BLOCK-----',
        '"-----BEGIN PRIVATE KEY-----\\n{b64:64}\\n{b64:30}',
      ],
      no: ['-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----'],
    },
  },
  // Vendor formats: a fixed prefix and a body of known length and alphabet.
  vendor('anthropic-key', 'anthropic-key', ['sk-ant-'], String.raw`sk-ant-(?:api|admin|oat|sid)\d\d-[\w-]{20,}`, 'Anthropic API, admin and OAuth keys', ['sk-ant-api03-{url:93}AA']),
  vendor(
    'openai-key',
    'openai-key',
    ['sk-'],
    String.raw`sk-(?:proj|svcacct|admin|None)-[\w-]{20,}|sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|sk-[A-Za-z0-9]{40,}`,
    'OpenAI project, service-account, admin and legacy keys (T3BlbkFJ is "OpenAI" in base64)',
    ['sk-proj-{url:120}', 'sk-{an:20}T3BlbkFJ{an:20}'],
    ['sk-learn', 'the sk-proj-setup task'],
  ),
  vendor(
    'aws-access-key',
    'aws-access-key',
    ['akia', 'asia', 'abia', 'acca', 'a3t'],
    String.raw`(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}`,
    'AWS access key ids (long-term AKIA, session ASIA)',
    ['AKIA{b32:16}', 'ASIA{b32:16}'],
    ['AKIA is the prefix of an access key'],
  ),
  vendor(
    'github-token',
    'github-token',
    ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    String.raw`gh[pousr]_[A-Za-z0-9]{36,}`,
    'GitHub personal, OAuth, user-to-server, server-to-server and refresh tokens',
    ['ghp_{an:36}', 'gho_{an:36}'],
    ['ghp_ tokens start so'],
  ),
  vendor('github-fine-grained', 'github-token', ['github_pat_'], String.raw`github_pat_\w{22,}`, 'GitHub fine-grained personal access tokens', ['github_pat_{an:22}_{an:59}']),
  vendor(
    'gitlab-token',
    'gitlab-token',
    ['glpat-', 'glrt-', 'glptt-', 'gldt-', 'glft-', 'glcbt-', 'glimt-', 'glsoat-', 'glffct-', 'glagent-', 'gloas-', 'gr1348941'],
    String.raw`(?:gl(?:pat|rt|ptt|dt|ft|cbt|imt|soat|ffct|agent|oas)-|GR1348941)[\w-]{20,}`,
    'GitLab personal, runner, pipeline-trigger, deploy, feed and agent tokens',
    ['glpat-{url:20}', 'glrt-{url:20}'],
    ['glpat- is the prefix'],
  ),
  vendor('npm-token', 'npm-token', ['npm_'], String.raw`npm_[A-Za-z0-9]{36}`, 'npm access tokens', ['npm_{an:36}'], ['npm_config_cache=/tmp/npm']),
  vendor('huggingface-token', 'huggingface-token', ['hf_', 'api_org_'], String.raw`(?:hf_|api_org_)[A-Za-z0-9]{30,}`, 'Hugging Face user and organisation tokens', ['hf_{an:34}']),
  vendor('sendgrid-key', 'sendgrid-key', ['sg.'], String.raw`SG\.[\w-]{22}\.[\w-]{43}`, 'SendGrid API keys', ['SG.{url:22}.{url:43}']),
  vendor('digitalocean-token', 'digitalocean-token', ['dop_v1_', 'doo_v1_', 'dor_v1_'], String.raw`do[opr]_v1_[a-f0-9]{64}`, 'DigitalOcean personal, OAuth and refresh tokens', ['dop_v1_{hex:64}']),
  vendor('linear-key', 'linear-key', ['lin_api_', 'lin_oauth_'], String.raw`lin_(?:api|oauth)_[A-Za-z0-9]{40}`, 'Linear API keys and OAuth tokens', ['lin_api_{an:40}']),
  vendor(
    'slack-token',
    'slack-token',
    ['xox', 'xapp-'],
    String.raw`(?:xox[abposer]-[A-Za-z0-9-]{10,}|xoxe\.xox[bp]-\d-[A-Za-z0-9]{100,}|xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+)`,
    'Slack bot, user, app and configuration tokens',
    ['xoxb-{dig:11}-{dig:13}-{an:24}', 'xapp-1-A{upd:10}-{dig:13}-{hex:64}'],
  ),
  vendor(
    'stripe-key',
    'stripe-key',
    ['sk_live_', 'rk_live_', 'sk_test_', 'rk_test_', 'whsec_'],
    String.raw`(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{32,})`,
    "Stripe secret and restricted keys (test keys too: they open the account's test data) and webhook secrets",
    ['sk_live_{an:99}', 'rk_test_{an:24}'],
    ['pk_live_ keys are publishable'],
  ),
  vendor('google-api-key', 'google-api-key', ['aiza'], String.raw`AIza[\w-]{35}`, 'Google API keys', ['AIza{url:35}']),
  vendor('google-oauth', 'google-oauth', ['gocspx-', 'ya29.'], String.raw`(?:GOCSPX-[\w-]{28}|ya29\.[\w-]{30,})`, 'Google OAuth client secrets and access tokens', ['GOCSPX-{url:28}']),
  vendor('twilio-key', 'twilio-key', [], String.raw`SK[0-9a-f]{32}`, 'Twilio API key sids (SK + 32 hex)', ['SK{hex:32}'], [], 3),
  vendor('mailgun-key', 'mailgun-key', ['key-'], String.raw`key-[0-9a-f]{32}`, 'Mailgun API keys', ['key-{hex:32}']),
  vendor('mailchimp-key', 'mailchimp-key', ['-us'], String.raw`[0-9a-f]{32}-us\d{1,2}`, 'Mailchimp API keys (32 hex and the data centre)', ['{hex:32}-us{dig:2}']),
  vendor('shopify-token', 'shopify-token', ['shpat_', 'shpss_', 'shpca_', 'shppa_'], String.raw`shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}`, 'Shopify access tokens and shared secrets', ['shpat_{hex:32}']),
  vendor('pypi-token', 'pypi-token', ['pypi-'], String.raw`pypi-AgEIcHlwaS5vcmc[\w-]{50,}`, 'PyPI upload tokens (a macaroon naming pypi.org)', ['pypi-AgEIcHlwaS5vcmc{url:70}']),
  vendor('docker-token', 'docker-token', ['dckr_pat_', 'dckr_oat_'], String.raw`dckr_(?:pat|oat)_[\w-]{20,}`, 'Docker Hub personal and organisation access tokens', ['dckr_pat_{url:27}']),
  vendor('atlassian-token', 'atlassian-token', ['atatt3', 'atctt3'], String.raw`AT[AC]TT3[\w=-]{150,}`, 'Atlassian (Jira, Confluence) API tokens', ['ATATT3xFfGF0{url:180}={hex:8}']),
  vendor('notion-token', 'notion-token', ['ntn_', 'secret_'], String.raw`(?:ntn_[A-Za-z0-9]{40,}|secret_[A-Za-z0-9]{43})`, 'Notion integration tokens', ['ntn_{an:46}'], ['secret_santa']),
  vendor('figma-token', 'figma-token', ['figd_', 'figo_'], String.raw`fig[do]_[\w-]{40,}`, 'Figma personal and OAuth tokens', ['figd_{url:40}']),
  vendor('grafana-token', 'grafana-token', ['glsa_', 'glc_'], String.raw`(?:glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2})`, 'Grafana service-account and Cloud tokens', [
    'glsa_{an:32}_{hex:8}',
  ]),
  vendor('databricks-token', 'databricks-token', ['dapi'], String.raw`dapi[a-f0-9]{32}(?:-\d)?`, 'Databricks personal access tokens', ['dapi{hex:32}']),
  vendor('vault-token', 'vault-token', ['hvs.', 'hvb.', 'hvr.'], String.raw`hv[sbr]\.[\w-]{24,}`, 'HashiCorp Vault service, batch and recovery tokens', ['hvs.{url:90}']),
  vendor('terraform-token', 'terraform-token', ['.atlasv1.'], String.raw`[A-Za-z0-9]{14}\.atlasv1\.[\w=-]{60,70}`, 'Terraform Cloud / Enterprise API tokens', ['{an:14}.atlasv1.{an:67}']),
  vendor('groq-key', 'groq-key', ['gsk_'], String.raw`gsk_[A-Za-z0-9]{48,}`, 'Groq API keys', ['gsk_{an:52}']),
  vendor('replicate-token', 'replicate-token', ['r8_'], String.raw`r8_[A-Za-z0-9]{37}`, 'Replicate API tokens', ['r8_{an:37}']),
  vendor('perplexity-key', 'perplexity-key', ['pplx-'], String.raw`pplx-[A-Za-z0-9]{48}`, 'Perplexity API keys', ['pplx-{an:48}']),
  vendor('xai-key', 'xai-key', ['xai-'], String.raw`xai-[A-Za-z0-9]{60,}`, 'xAI API keys', ['xai-{an:80}']),
  vendor('postman-key', 'postman-key', ['pmak-'], String.raw`PMAK-[a-f0-9]{24}-[a-f0-9]{34}`, 'Postman API keys', ['PMAK-{hex:24}-{hex:34}']),
  vendor('newrelic-key', 'newrelic-key', ['nrak-', 'nrii-', 'nrjs-'], String.raw`NR(?:AK|II|JS)-[A-Za-z0-9]{27,32}`, 'New Relic user, insert and browser keys', ['NRAK-{upd:27}']),
  vendor('pulumi-token', 'pulumi-token', ['pul-'], String.raw`pul-[a-f0-9]{40}`, 'Pulumi access tokens', ['pul-{hex:40}']),
  vendor('supabase-token', 'supabase-token', ['sbp_', 'sb_secret_'], String.raw`(?:sbp_[a-f0-9]{40}|sb_secret_[\w-]{30,})`, 'Supabase personal access tokens and secret keys', ['sbp_{hex:40}']),
  vendor('planetscale-token', 'planetscale-token', ['pscale_'], String.raw`pscale_(?:tkn|pw|oauth)_[\w.-]{32,64}`, 'PlanetScale service tokens and passwords', ['pscale_tkn_{url:43}']),
  vendor('doppler-token', 'doppler-token', ['dp.'], String.raw`dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}`, 'Doppler tokens', ['dp.pt.{an:43}']),
  vendor('sentry-token', 'sentry-token', ['sntrys_', 'sntryu_'], String.raw`sntry[su]_[\w+/=-]{40,}`, 'Sentry organisation and user auth tokens', ['sntrys_{an:80}']),
  vendor('age-key', 'age-key', ['age-secret-key-'], String.raw`AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`, 'age encryption identities', ['AGE-SECRET-KEY-1{bech:58}']),
  vendor('telegram-token', 'telegram-token', [':aa'], String.raw`\d{8,10}:AA[\w-]{33}`, 'Telegram bot tokens', ['{dig:10}:AA{url:33}']),
  vendor('square-token', 'square-token', ['eaaa', 'sq0atp-', 'sq0csp-'], String.raw`(?:EAAA[\w-]{60}|sq0(?:atp|csp)-[\w-]{22,43})`, 'Square access tokens and OAuth secrets', ['EAAA{url:60}']),
  vendor('flyio-token', 'flyio-token', ['fo1_', 'fm1', 'fm2'], String.raw`(?:fo1_[\w-]{43}|fm[12][ar]?_[A-Za-z0-9+/]{100,}={0,3})`, 'Fly.io tokens', ['fo1_{url:43}']),
  vendor('onepassword-token', 'onepassword-token', ['ops_'], String.raw`ops_eyJ[A-Za-z0-9+/]{250,}={0,3}`, '1Password service-account tokens', ['ops_eyJ{b64:260}']),
  vendor('azure-client-secret', 'azure-secret', ['q~'], String.raw`[A-Za-z0-9_~.]{3}\dQ~[\w~.-]{31,34}`, 'Azure AD (Entra) client secrets', ['{an:3}8Q~{url:31}']),
  vendor('openrouter-key', 'openrouter-key', ['sk-or-'], String.raw`sk-or-v1-[a-f0-9]{64}`, 'OpenRouter API keys', ['sk-or-v1-{hex:64}']),
  vendor('deepseek-key', 'deepseek-key', ['sk-'], String.raw`sk-[a-f0-9]{32}`, 'DeepSeek API keys (sk- and 32 hex)', ['sk-{hex:32}'], ['sk-learn-0']),
  vendor('elevenlabs-key', 'elevenlabs-key', ['sk_'], String.raw`sk_[a-f0-9]{48}`, 'ElevenLabs API keys', ['sk_{hex:48}']),
  vendor('cerebras-key', 'cerebras-key', ['csk-'], String.raw`csk-[a-z0-9]{48}`, 'Cerebras API keys', ['csk-{lod:48}']),
  vendor('tavily-key', 'tavily-key', ['tvly-'], String.raw`tvly-(?:dev-|prod-)?[A-Za-z0-9]{32}`, 'Tavily API keys', ['tvly-{an:32}']),
  vendor('firecrawl-key', 'firecrawl-key', ['fc-'], String.raw`fc-[a-f0-9]{32}`, 'Firecrawl API keys', ['fc-{hex:32}']),
  vendor('pinecone-key', 'pinecone-key', ['pcsk_'], String.raw`pcsk_\w{50,}`, 'Pinecone API keys', ['pcsk_{an:6}_{an:60}']),
  vendor('langsmith-key', 'langsmith-key', ['lsv2_'], String.raw`lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}`, 'LangSmith personal and service keys', ['lsv2_pt_{hex:32}_{hex:10}']),
  vendor('fireworks-key', 'fireworks-key', ['fw_'], String.raw`fw_[A-Za-z0-9]{24}`, 'Fireworks AI API keys', ['fw_{an:24}'], [], 3.5),
  vendor('resend-key', 'resend-key', ['re_'], String.raw`re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}`, 'Resend API keys', ['re_{an:8}_{an:24}'], ['re_compile_pattern_for_all_the_words'], 3.5),
  vendor('tailscale-key', 'tailscale-key', ['tskey-'], String.raw`tskey-[a-z]+-[\w-]{20,}`, 'Tailscale auth, API and OAuth client keys', ['tskey-auth-{an:12}CNTRL-{an:32}']),
  vendor('netlify-token', 'netlify-token', ['nfp_'], String.raw`nfp_[A-Za-z0-9]{36,}`, 'Netlify personal access tokens', ['nfp_{an:40}']),
  vendor('render-key', 'render-key', ['rnd_'], String.raw`rnd_[A-Za-z0-9]{32}`, 'Render API keys', ['rnd_{an:32}']),
  vendor('heroku-key', 'heroku-key', ['hrku-'], String.raw`HRKU-[\w-]{50,}`, 'Heroku API keys (HRKU- format)', ['HRKU-AA{url:58}']),
  vendor('airtable-token', 'airtable-token', ['pat'], String.raw`pat[A-Za-z0-9]{14}\.[a-f0-9]{64}`, 'Airtable personal access tokens', ['pat{an:14}.{hex:64}']),
  vendor('sonarqube-token', 'sonarqube-token', ['sqp_', 'squ_', 'sqa_'], String.raw`sq[pua]_[a-f0-9]{40}`, 'SonarQube project, user and analysis tokens', ['squ_{hex:40}']),
  vendor('jfrog-token', 'jfrog-token', ['akcp', 'cmvmdgtuojaxoj'], String.raw`(?:AKCp[A-Za-z0-9]{69}|cmVmdGtuOjAxOj[A-Za-z0-9]{40,})`, 'JFrog Artifactory API keys and reference tokens', [
    'AKCp{an:69}',
  ]),
  vendor('mapbox-secret', 'mapbox-token', ['sk.eyj'], String.raw`sk\.eyJ[\w-]{20,}\.[\w-]{20,}`, 'Mapbox secret tokens (pk. tokens are public)', ['sk.eyJ1{url:40}.{url:22}']),
  vendor('shippo-token', 'shippo-token', ['shippo_'], String.raw`shippo_(?:live|test)_[a-f0-9]{40}`, 'Shippo API tokens', ['shippo_live_{hex:40}']),
  vendor('rubygems-key', 'rubygems-key', ['rubygems_'], String.raw`rubygems_[a-f0-9]{48}`, 'RubyGems API keys', ['rubygems_{hex:48}']),
  vendor('brevo-key', 'brevo-key', ['xkeysib-', 'xsmtpsib-'], String.raw`x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}`, 'Brevo (Sendinblue) API and SMTP keys', ['xkeysib-{hex:64}-{an:16}']),
  vendor(
    'twitter-bearer',
    'twitter-token',
    ['aaaaaaaaaaaaaaaaaaaa'],
    String.raw`A{20,22}(?<secret>(?!A)[A-Za-z0-9%]{60,})`,
    'Twitter / X app bearer tokens (some 21 As, then the token; a longer run of As is base64 data)',
    ['AAAAAAAAAAAAAAAAAAAAAA{an:80}'],
    ['/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA+'],
    4,
  ),
  vendor('alibaba-key', 'alibaba-key', ['ltai'], String.raw`LTAI[A-Za-z0-9]{12,20}`, 'Alibaba Cloud access key ids', ['LTAI{an:20}'], [], 3),
  vendor('dropbox-token', 'dropbox-token', ['sl.'], String.raw`sl\.(?:u\.)?[\w-]{130,}`, 'Dropbox short-lived access tokens', ['sl.{url:140}']),
  vendor('cloudflare-origin-ca', 'cloudflare-key', ['v1.0-'], String.raw`v1\.0-[a-f0-9]{24}-[a-f0-9]{146}`, 'Cloudflare Origin CA keys', ['v1.0-{hex:24}-{hex:146}']),
  vendor(
    'misc-prefixed-token',
    'token',
    ['clojars_', 'pnu_', 'rdme_', 'tfp_', 'ezak', 'duffel_', 'fio-u-', 'tk-us-', 'bb_live_', 'jina_'],
    String.raw`(?:CLOJARS_[a-z0-9]{60}|pnu_[A-Za-z0-9]{36}|rdme_[a-z0-9]{70}|tfp_[\w.=-]{59}|EZAK[A-Za-z0-9]{54}|duffel_(?:test|live)_[\w=-]{43}|fio-u-[\w=-]{64}|tk-us-[\w-]{48}|bb_live_[\w-]{20,}|jina_[A-Za-z0-9]{40,})`,
    'Clojars, Prefect, ReadMe, Typeform, EasyPost, Duffel, Frame.io, Scalingo, Browserbase and Jina tokens',
    ['pnu_{an:36}', 'rdme_{lod:70}', 'jina_{an:60}'],
  ),
  vendor(
    'discord-bot-token',
    'discord-token',
    [],
    String.raw`[MNO][A-Za-z0-9_-]{23,25}\.[\w-]{6}\.[\w-]{27,38}`,
    'Discord bot tokens (a base64 user id, a timestamp and an HMAC); no prefix to look for',
    ['M{an:23}.{url:6}.{url:38}'],
    ['Node.js.version'],
    3.5,
  ),
  vendor(
    'jwt',
    'jwt',
    ['eyj'],
    String.raw`eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{10,}`,
    'JSON web tokens (signed): bearer credentials until they expire',
    ['eyJhbGciOiJIUzI1NiJ9.eyJ{url:40}.{url:43}'],
    ['eyJhbGciOiJFZERTQSJ9...'],
  ),
  // Credentials inside URLs and connection strings.
  {
    id: 'url-credentials',
    kind: 'url-credentials',
    keywords: ['://'],
    pattern: /(?<=[a-z0-9+.-]):\/\/(?<user>[^\s:/@'"`<>]*):(?<secret>[^\s@/'"`<>]+)@(?=[\w.[-])/gi,
    why: 'scheme://user:password@host, including redis://:password@host; default passwords (postgres:postgres@localhost) are left',
    examples: {
      yes: ['redis://:{an:24}@cache:6379', 'postgres://app:{an:20}@db:5432/app', 'https://deploy:{an:32}@git.example.com/a.git'],
      no: ['postgresql://postgres:postgres@localhost:5432/app', 'mongodb://user:${DB_PASSWORD}@db/app', 'https://user:password@host'],
    },
  },
  {
    id: 'url-query-secret',
    kind: 'url-token',
    keywords: ['token=', 'key=', 'secret=', 'sig=', 'signature=', 'password=', 'auth='],
    pattern: /[?&](?:access_token|refresh_token|id_token|token|auth_token|api[_-]?key|apikey|key|secret|client_secret|sig|signature|password|auth)=(?<secret>[^&#\s"'`<>]{8,})/gi,
    value: 'token',
    why: "tokens, keys and signatures (Azure SAS sig=) in a URL's query",
    examples: {
      yes: ['https://api.x.io/v1?access_token={url:40}&page=2', 'https://a.blob.core.windows.net/c?sv=2022-11-02&sig={b64:43}%3D'],
      no: ['/ws?token=${encodeURIComponent(token)}', 'https://x.io/?key=value'],
    },
  },
  vendor(
    'slack-webhook',
    'slack-webhook',
    ['hooks.slack.com'],
    String.raw`hooks\.slack\.com/(?:services|workflows|triggers)/(?<secret>[A-Za-z0-9/_-]{20,})`,
    'Slack incoming-webhook URLs: whoever holds one can post',
    ['https://hooks.slack.com/services/T{upd:10}/B{upd:10}/{an:24}'],
  ),
  vendor('discord-webhook', 'discord-webhook', ['/api/webhooks/'], String.raw`discord(?:app)?\.com/api/webhooks/(?<secret>\d{16,20}/[\w-]{60,})`, 'Discord webhook URLs: whoever holds one can post', [
    'https://discord.com/api/webhooks/{dig:18}/{url:68}',
  ]),
  {
    id: 'azure-account-key',
    kind: 'azure-key',
    keywords: ['accountkey=', 'sharedaccesskey=', 'accesskey='],
    pattern: /(?:AccountKey|SharedAccessKey|AccessKey)=(?<secret>[A-Za-z0-9+/]{30,}={0,2})/gi,
    why: 'Azure storage, Service Bus and Event Hubs keys in connection strings',
    examples: { yes: ['DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={b64:86}==;EndpointSuffix=core.windows.net'], no: ['AccountKey=<your-key>'] },
  },
  // Credentials by position: after a header, a flag or a name.
  {
    id: 'auth-header',
    kind: 'bearer-token',
    keywords: ['bearer', 'basic', 'token ', 'bot '],
    pattern: /(?<![A-Za-z0-9_])(?:Bearer|Basic|Token|Bot)\s+(?<secret>[A-Za-z0-9._~+/-]{12,}={0,2})(?![\w$])/g,
    value: 'token',
    why: 'Authorization header values: Bearer, Basic, Token, Bot',
    examples: {
      yes: ['Authorization: Bearer {url:48}', "-H 'Authorization: Basic {b64:40}'"],
      no: ['Authorization: Bearer ${token}', 'Bearer authentication is used', 'Token: eyJhbGciOiJFZERTQSJ9...'],
    },
  },
  {
    id: 'cli-flag',
    kind: 'password',
    keywords: ['--pass', '--token', '--api', '--secret', '--client-secret', '--auth', '--access', '--private', '--storepass', '--keypass', '--key-pass', 'sshpass', '-u ', '--user '],
    pattern:
      /(?<![\w-])(?:--(?:password|passwd|pass|token|api-key|apikey|secret|client-secret|auth-token|access-token|private-key|storepass|keypass|key-password)(?:=|\s+)|sshpass\s+-p\s*|(?:-u|--user)\s+["']?[^\s:'"]+:)["']?(?<secret>[^\s"'`;|&<>]{6,})/gi,
    value: 'password',
    why: 'credentials passed on a command line: --password X, --token=X, sshpass -p X, curl -u user:X',
    examples: { yes: ['mysql --password {pw:16} -h db', 'curl -u admin:{an:20} https://x.io'], no: ['--password "$DB_PASSWORD"', '--token-file ./token.txt'] },
  },
  assignment(
    'password-assignment',
    PASSWORD_NAME,
    'password',
    ['pass', 'pwd'],
    'a value after a password\'s name (DB_PASSWORD=, "password": , password: ): typed passwords are short, so a digit or a symbol is enough',
    ['DB_PASSWORD={pw:16}', '"dbPassword": "{pw:16}"', 'password: {pw:12}'],
    ['password: string', 'password: this.options.password', 'KEYCHAIN_PASSWORD=$(openssl rand -hex 20)', 'password: "{{.Env.SIGN_PASSWORD}}"', 'bypass: true'],
  ),
  assignment(
    'credential-assignment',
    TOKEN_NAME,
    'token',
    ['secret', 'token', 'credential', 'auth', 'key', 'sas', 'connection'], // 'auth' also finds authorization
    "a generated value after a token's, secret's or API key's name (GITHUB_TOKEN=, \"npmToken\": , client_secret: , X-Api-Key: )",
    ['AWS_SECRET_ACCESS_KEY={b64:40}', '"npmToken": "{an:36}"', 'X-API-Key: {an:40}', 'TWILIO_AUTH_TOKEN={hex:32}'],
    [
      'token: this.options.authToken',
      'const token = authHeader.substring(7);',
      'api_key: anthropic_api_key()',
      'CHAT_STATS_TOKEN: "${CHAT_STATS_TOKEN:-}"',
      'max_tokens: 4096',
      'private credentials: AuthCredentials | null = null;',
    ],
  ),
  assignment(
    'key-assignment',
    // Case-sensitive, so that camelCase `serviceKey` counts and `monkey` does not.
    String.raw`[_.-](?:key|KEY|Key)|[a-z0-9]Key`,
    'key',
    ['key'],
    'a long random value after a name ending in key (STRIPE_KEY=, "serviceKey": ); hashes and uuids there are ids, not secrets',
    ['STRIPE_KEY={an:32}', '"serviceKey": "{url:40}"'],
    ['cacheKey: "user-profile"', 'sort_key = 0b6f1c2e9d3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c', "queryKey: ['todos']"],
    'g',
  ),
];

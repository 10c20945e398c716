// The page's language (issue 28): the reader's choice kept in this browser (localStorage), else the
// browser's own languages, else English. The words come from the server's catalogs
// (GET /languages/<lang>/catalog: the strings ops/i18n-extract found in t("...") and tn(...) calls
// here), and every API call asks for the same language (Accept-Language), so rulings, labels and
// problems read alike. English needs no catalog: t() returns the English text it is given.
export const LANGUAGES = [['en', 'English'], ['uk', 'Українська'], ['ru', 'Русский'], ['cs', 'Čeština'], ['it', 'Italiano']];
const KEY = 'umpire.lang';
let current = 'en';
let catalog = { messages: {}, plural: {} };

// The pseudo-locale (tests only; the server speaks it only when allowed): every catalog string marked.
const PSEUDO = 'x-pseudo';

function supported(tag) {
  const base = String(tag || '').toLowerCase().split('-')[0];
  return LANGUAGES.some(([id]) => id === base) ? base : null;
}

export function chosen() {
  let kept = null;
  try { kept = localStorage.getItem(KEY); } catch { /* storage off: the browser decides */ }
  if (kept === PSEUDO) return PSEUDO;  // only ever set by hand (a test): never offered by the switcher
  if (supported(kept)) return supported(kept);
  for (const tag of navigator.languages || [navigator.language]) {
    const got = supported(tag);
    if (got) return got;
  }
  return 'en';
}

export function lang() { return current; }

// The locale Intl writes dates and numbers in (the pseudo-locale writes them as English does).
export function intlLocale() { return current === PSEUDO ? 'en' : current; }

export async function load(want = chosen()) {
  current = want;
  document.documentElement.lang = current === PSEUDO ? 'en-XA' : current;
  if (current === 'en') { catalog = { messages: {}, plural: {} }; return; }
  try {
    const res = await fetch(`/languages/${current}/catalog`, { headers: { accept: 'application/json' } });
    if (res.ok) catalog = await res.json();
  } catch { /* offline: English words, the server's answers still in the reader's language */ }
}

// {name} placeholders filled from params (a number written as the page's language writes it).
function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (all, k) => (k in params ? String(typeof params[k] === 'number' ? number(params[k]) : params[k]) : all));
}

// A number as the page's language writes it (a decimal comma in uk, ru, cs, it).
export function number(n) {
  return Number.isInteger(n) ? String(n) : n.toLocaleString(intlLocale(), { maximumFractionDigits: 3 });
}

// The text in the page's language (the English text when the catalog has none); params fill its
// {placeholders}: t('Game {id}', { id }).
export function t(text, params) { return fill(catalog.messages[text] || text, params); }

// A text with plural forms: n chooses the form by the language's CLDR rules; {n} and params fill it.
export function tn(singular, plural, n, params) {
  const forms = catalog.messages[singular];
  const all = { n, ...(params || {}) };
  if (!forms) return fill(n === 1 ? singular : plural, all);
  const i = catalog.plural[new Intl.PluralRules(intlLocale()).select(n)] ?? forms.length - 1;
  return fill(forms[i] || forms[forms.length - 1], all);
}

// The language switcher: a labelled select; the choice is kept in this browser and the page reloads in it.
export function switcher(h) {
  const select = h('select', { id: 'lang', 'aria-label': t('Language') },
    ...LANGUAGES.map(([id, name]) => h('option', { value: id, ...(id === current ? { selected: '' } : {}) }, name)));
  select.addEventListener('change', () => {
    try { localStorage.setItem(KEY, select.value); } catch { /* storage off: this page only */ }
    location.reload();
  });
  return select;
}

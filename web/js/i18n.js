// The page's language (issue 28): the reader's choice kept in this browser (localStorage), else the
// browser's own languages, else English. The words come from the server's catalogs
// (GET /languages/<lang>/catalog: the strings ops/i18n-extract found in t("...") and tn(...) calls
// here), and every API call asks for the same language (Accept-Language), so rulings, labels and
// problems read alike. English needs no catalog: t() returns the English text it is given.
export const LANGUAGES = [['en', 'English'], ['uk', 'Українська'], ['ru', 'Русский'], ['cs', 'Čeština'], ['it', 'Italiano']];
const KEY = 'umpire.lang';
let current = 'en';
let catalog = { messages: {}, plural: {} };

function supported(tag) {
  const base = String(tag || '').toLowerCase().split('-')[0];
  return LANGUAGES.some(([id]) => id === base) ? base : null;
}

export function chosen() {
  let kept = null;
  try { kept = localStorage.getItem(KEY); } catch { /* storage off: the browser decides */ }
  if (supported(kept)) return supported(kept);
  for (const tag of navigator.languages || [navigator.language]) {
    const got = supported(tag);
    if (got) return got;
  }
  return 'en';
}

export function lang() { return current; }

export async function load(want = chosen()) {
  current = want;
  document.documentElement.lang = current;
  if (current === 'en') { catalog = { messages: {}, plural: {} }; return; }
  try {
    const res = await fetch(`/languages/${current}/catalog`, { headers: { accept: 'application/json' } });
    if (res.ok) catalog = await res.json();
  } catch { /* offline: English words, the server's answers still in the reader's language */ }
}

// The text in the page's language (the English text when the catalog has none).
export function t(text) { return catalog.messages[text] || text; }

// A text with plural forms: n chooses the form by the language's CLDR rules.
export function tn(singular, plural, n) {
  const forms = catalog.messages[singular];
  if (!forms) return n === 1 ? singular : plural;
  const i = catalog.plural[new Intl.PluralRules(current).select(n)] ?? forms.length - 1;
  return forms[i] || forms[forms.length - 1];
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

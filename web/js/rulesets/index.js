// Ruleset-specific helpers, by ruleset id. A ruleset without one is played through the generic
// fallback (every legal command as a button, templates as forms), so it works the day it registers.
import hoth from './hoth.js';
import smoke from './smoke.js';
import emperor from './emperor.js';

const PLUGINS = { hoth, smoke, emperor };

export function pluginFor(rulesetId) { return PLUGINS[rulesetId] || null; }

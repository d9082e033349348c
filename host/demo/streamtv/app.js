/*
 * StreamTV — a demo "TV operator" app used to exercise devicepilot.
 *
 * Plain JavaScript, no dependencies. The app is a set of screens
 * (<section class="screen" data-screen="NAME">), one active at a time,
 * selected through hash routes (#/home, #/live, #/movie/<slug>, ...).
 * It is driven with a D-pad style keyboard: arrows move focus spatially,
 * Enter is OK, Backspace/Escape is Back.
 */
'use strict';

(function () {
  // ===========================================================================
  // Catalogue
  // ===========================================================================

  const CHANNELS = [
    { number: 1, name: 'Aurora News', programme: 'Evening Headlines', slot: '20:00 – 21:00', colors: ['#0b3d91', '#1e88e5'] },
    { number: 2, name: 'Boreal Sports', programme: 'Alpine Ski Cup', slot: '19:30 – 21:30', colors: ['#0d5c2e', '#43a047'] },
    { number: 3, name: 'Cinema Nova', programme: 'Midnight Matinee', slot: '20:15 – 22:00', colors: ['#4a0e4e', '#8e24aa'] },
    { number: 4, name: 'Kids Planet', programme: 'Robo Pals', slot: '20:00 – 20:30', colors: ['#a34700', '#fb8c00'] },
    { number: 5, name: 'Melody TV', programme: 'Top 40 Countdown', slot: '20:00 – 21:00', colors: ['#880e4f', '#e91e63'] },
    { number: 6, name: 'Wild Earth', programme: 'Secrets of the Reef', slot: '20:30 – 21:30', colors: ['#1b5e20', '#00897b'] },
    { number: 7, name: 'Laugh Track', programme: 'Stand-Up Sunday', slot: '20:00 – 21:00', colors: ['#7a5c00', '#f9a825'] },
    { number: 8, name: 'Tech Today', programme: 'Gadget Lab', slot: '20:00 – 20:45', colors: ['#263238', '#607d8b'] },
  ];

  const REPLAYS = [
    { title: 'Election Night Special', channel: 1, when: 'Yesterday 21:00' },
    { title: 'Cup Final Highlights', channel: 2, when: 'Yesterday 22:30' },
    { title: 'Classic Film Club', channel: 3, when: 'Thu 20:30' },
    { title: 'Star Cadets', channel: 4, when: 'Fri 17:00' },
    { title: 'Jazz at the Lake', channel: 5, when: 'Fri 22:00' },
    { title: 'Ocean Giants', channel: 6, when: 'Mon 20:00' },
    { title: 'Comedy Gala', channel: 7, when: 'Sun 21:00' },
    { title: 'Future of Robots', channel: 8, when: 'Sat 19:00' },
  ];

  const MOVIES = [
    {
      slug: 'the-last-orbit', title: 'The Last Orbit', year: 2022, genre: 'Sci-Fi', duration: '1h 58m',
      synopsis: 'A stranded engineer has ninety minutes to bring a failing space station home before its final pass over Earth.',
      poster: { from: '#0a0f2e', to: '#4b2a8a', motif: 'orbit' },
    },
    {
      slug: 'river-of-glass', title: 'River of Glass', year: 2019, genre: 'Drama', duration: '2h 04m',
      synopsis: 'Two estranged sisters retrace their late father\'s canoe journey through the frozen wetlands of the north.',
      poster: { from: '#0f4c5c', to: '#5fb3c9', motif: 'river' },
    },
    {
      slug: 'silent-harbor', title: 'Silent Harbor', year: 2021, genre: 'Thriller', duration: '1h 47m',
      synopsis: 'When every boat in a fishing town vanishes overnight, the new harbour master must find out who wants the village empty.',
      poster: { from: '#1c2331', to: '#56677f', motif: 'lighthouse' },
    },
    {
      slug: 'paper-kingdoms', title: 'Paper Kingdoms', year: 2020, genre: 'Animation', duration: '1h 35m',
      synopsis: 'A shy origami artist discovers that the tiny cities she folds come alive after midnight.',
      poster: { from: '#f3d9a4', to: '#e0703a', motif: 'paper' },
    },
    {
      slug: 'neon-tides', title: 'Neon Tides', year: 2023, genre: 'Action', duration: '2h 01m',
      synopsis: 'A courier races through a flooded megacity to deliver a package that every gang in town wants.',
      poster: { from: '#1a0033', to: '#3d0a5c', motif: 'neon' },
    },
    {
      slug: 'the-quiet-valley', title: 'The Quiet Valley', year: 2018, genre: 'Western', duration: '1h 52m',
      synopsis: 'A retired sheriff returns to the valley he once protected when a railroad company arrives with its own law.',
      poster: { from: '#f6a545', to: '#b8432f', motif: 'valley' },
    },
  ];

  const AUDIO_LANGUAGES = ['English', 'French', 'Spanish'];
  const DEFAULT_PIN = '0000';
  const BANNER_MS = 5000;
  const CLIP_SECONDS = 600;          // every clip is a 10 minute loop
  const SUBTITLE_LINES = [
    'Where were you last night?',
    'We have to leave before sunrise.',
    'Nobody told me it would be this quiet.',
    'Keep going. We are almost there.',
    'I never thought I would see this place again.',
  ];

  const moviesBySlug = new Map(MOVIES.map((m) => [m.slug, m]));
  const channelByNumber = (n) => CHANNELS[n - 1];

  // ===========================================================================
  // State
  // ===========================================================================

  const state = {
    screen: null,          // active screen name
    params: {},            // route parameters of the active screen
    channel: 1,
    subtitles: false,
    audioIndex: 0,
    parentalLock: false,
    pin: DEFAULT_PIN,
    pinOpen: false,
    title: MOVIES[0].title, // what the player plays
    paused: false,
    clipPos: 0,            // seconds into the current clip
  };

  /** Previously visited screens: {screen, params, focus}. */
  const backStack = [];

  // ===========================================================================
  // DOM helpers
  // ===========================================================================

  const $ = (selector, root = document) => root.querySelector(selector);
  const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

  /** Create an element with attributes (dataset via data-*) and children. */
  function h(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (key === 'className') node.className = value;
      else if (key === 'text') node.textContent = value;
      else if (key === 'html') node.innerHTML = value;
      else if (key === 'onClick') node.addEventListener('click', value);
      else node.setAttribute(key, value);
    }
    for (const child of children) node.append(child);
    return node;
  }

  /** A D-pad focusable button. */
  function focusableButton(className, attrs, ...children) {
    return h('button', { className: `${className} focusable`, tabindex: '0', type: 'button', ...attrs }, ...children);
  }

  const sectionFor = (name) => document.getElementById(`screen-${name}`);

  // ===========================================================================
  // Focus management and spatial navigation
  // ===========================================================================

  let focusedEl = null;

  /** The element focus is confined to: the open dialog or the active screen. */
  function focusScope() {
    return state.pinOpen ? $('#pin-dialog') : sectionFor(state.screen);
  }

  function isShown(node) {
    return node.isConnected && node.getClientRects().length > 0 && !node.disabled;
  }

  function focusablesInScope() {
    const scope = focusScope();
    return scope ? $$('.focusable', scope).filter(isShown) : [];
  }

  /** Mark `node` as the focused element and give it real DOM focus. */
  function setFocus(node) {
    if (!node) return;
    markFocused(node);
    if (document.activeElement !== node) node.focus({ preventScroll: true });
    node.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }

  function markFocused(node) {
    if (focusedEl && focusedEl !== node) focusedEl.classList.remove('focused');
    focusedEl = node;
    node.classList.add('focused');
  }

  /** The focused element if it is still usable in the current scope. */
  function currentFocus() {
    const scope = focusScope();
    if (focusedEl && scope && scope.contains(focusedEl) && isShown(focusedEl)) return focusedEl;
    return null;
  }

  function focusFirst() {
    const [first] = focusablesInScope();
    if (first) setFocus(first);
  }

  /** Distance between two 1-D intervals (0 when they overlap). */
  const intervalGap = (a1, a2, b1, b2) => Math.max(0, Math.max(a1, b1) - Math.min(a2, b2));

  /**
   * Re-express a rectangle so that every move looks like a move down:
   * "up" mirrors the vertical axis, "right" swaps the axes, "left" does both.
   */
  const ORIENT = {
    down: (r) => ({ top: r.top, bottom: r.bottom, left: r.left, right: r.right }),
    up: (r) => ({ top: -r.bottom, bottom: -r.top, left: r.left, right: r.right }),
    right: (r) => ({ top: r.left, bottom: r.right, left: r.top, right: r.bottom }),
    left: (r) => ({ top: -r.right, bottom: -r.left, left: r.top, right: r.bottom }),
  };

  /**
   * Cost of moving down from `f` to `t` (oriented rectangles), or Infinity
   * when `t` is not below `f`. Elements in line with the current one win
   * over diagonal ones; among those, the one whose leading edge lines up
   * best (e.g. the first key under a wide field), then document order.
   */
  function moveCost(f, t) {
    const fMid = { x: (f.left + f.right) / 2, y: (f.top + f.bottom) / 2 };
    const tMid = { x: (t.left + t.right) / 2, y: (t.top + t.bottom) / 2 };
    if (tMid.y <= fMid.y + 0.5 || t.bottom <= f.bottom + 0.5) return Infinity;
    const along = Math.max(0, t.top - f.bottom);
    const across = intervalGap(f.left, f.right, t.left, t.right);
    if (across > 0) return along + 3 * across + 0.1 * Math.abs(tMid.x - fMid.x);
    return along + 0.1 * Math.round(Math.abs(t.left - f.left));
  }

  /** Nearest focusable from `from` in direction `dir`, or null. */
  function findNeighbour(from, dir) {
    const orient = ORIENT[dir];
    const f = orient(from.getBoundingClientRect());
    let best = null;
    let bestCost = Infinity;
    for (const candidate of focusablesInScope()) {
      if (candidate === from) continue;
      const cost = moveCost(f, orient(candidate.getBoundingClientRect()));
      if (cost < bestCost) {
        bestCost = cost;
        best = candidate;
      }
    }
    return best;
  }

  function moveFocus(dir) {
    const from = currentFocus();
    if (!from) {
      focusFirst();
      return;
    }
    const next = findNeighbour(from, dir);
    if (next) setFocus(next);
  }

  /** OK: activate the focused element exactly like a mouse click. */
  function activateFocused() {
    const node = currentFocus();
    if (node) node.click();
    else focusFirst();
  }

  // ===========================================================================
  // Routing and screen history
  // ===========================================================================

  function routeHash(screen, params) {
    return screen === 'movie' ? `#/movie/${params.slug}` : `#/${screen}`;
  }

  /** Parse a location hash into {screen, params}; unknown routes go home. */
  function parseHash(hash) {
    const parts = (hash || '').replace(/^#\/?/, '').split('/').filter(Boolean);
    const [name, arg] = parts;
    if (name === 'movie') {
      return moviesBySlug.has(arg) ? { screen: 'movie', params: { slug: arg } } : { screen: 'movies', params: {} };
    }
    if (name && screens[name]) return { screen: name, params: {} };
    return { screen: 'home', params: {} };
  }

  const sameRoute = (a, b) => a.screen === b.screen && routeHash(a.screen, a.params) === routeHash(b.screen, b.params);

  /** Make `name` the active screen. opts.focus restores a focus, opts.restoring marks a Back. */
  function showScreen(name, params = {}, opts = {}) {
    const previous = state.screen && screens[state.screen];
    if (previous && previous.leave) previous.leave();

    for (const section of $$('.screen')) {
      section.classList.toggle('active', section.dataset.screen === name);
    }
    state.screen = name;
    state.params = params;
    document.body.dataset.screen = name;

    const def = screens[name];
    if (def.enter) def.enter(params, opts);

    const hash = routeHash(name, params);
    if (location.hash !== hash) history.replaceState(null, '', hash);

    const restore = opts.focus && sectionFor(name).contains(opts.focus) && isShown(opts.focus) ? opts.focus : null;
    const initial = def.initialFocus ? $(def.initialFocus) : null;
    if (restore) setFocus(restore);
    else if (initial && isShown(initial)) setFocus(initial);
    else focusFirst();
  }

  /** Go forward to a screen, remembering where we came from. */
  function navigate(name, params = {}) {
    const target = { screen: name, params };
    if (state.screen && sameRoute(target, state)) return;
    if (state.screen) backStack.push({ screen: state.screen, params: state.params, focus: focusedEl });
    showScreen(name, params);
  }

  /** Back: close the dialog, else return to the previous screen. */
  function goBack() {
    if (state.pinOpen) {
      closePinDialog();
      return;
    }
    if (state.screen === 'home') return;
    const entry = backStack.pop() || { screen: screens[state.screen].parent || 'home', params: {} };
    showScreen(entry.screen, entry.params, { focus: entry.focus, restoring: true });
  }

  function goHome() {
    if (state.pinOpen) closePinDialog();
    backStack.length = 0;
    if (state.screen !== 'home') showScreen('home');
  }

  /** The hash was changed from outside (address bar, automation). */
  function onHashChange() {
    const route = parseHash(location.hash);
    if (sameRoute(route, state)) return;
    if (route.screen === 'home') {
      goHome();
      return;
    }
    navigate(route.screen, route.params);
  }

  // ===========================================================================
  // Live TV
  // ===========================================================================

  let bannerTimer = null;

  function showBanner() {
    const ch = channelByNumber(state.channel);
    const banner = $('#channel-banner');
    banner.textContent = `${ch.number} ${ch.name}`;
    banner.hidden = false;
    clearTimeout(bannerTimer);
    bannerTimer = setTimeout(hideBanner, BANNER_MS);
  }

  function hideBanner() {
    clearTimeout(bannerTimer);
    bannerTimer = null;
    $('#channel-banner').hidden = true;
  }

  /** Set the current channel and refresh every view of it. */
  function setChannel(number) {
    state.channel = number;
    const ch = channelByNumber(number);
    sectionFor('live').dataset.channel = String(number);
    $('#current-channel').textContent = `CH ${number}`;
    $('#live-now').textContent = `Now: ${ch.programme}`;
  }

  function tune(number) {
    setChannel(number);
    if (state.screen === 'live') showBanner();
  }

  const channelUp = () => tune((state.channel % CHANNELS.length) + 1);
  const channelDown = () => tune(((state.channel + CHANNELS.length - 2) % CHANNELS.length) + 1);

  function tuneDigit(event) {
    const digit = Number(event.key);
    if (digit >= 1 && digit <= CHANNELS.length) tune(digit);
  }

  // ===========================================================================
  // Guide, Replay, Movies
  // ===========================================================================

  function buildGuide() {
    const list = $('#guide-list');
    for (const ch of CHANNELS) {
      list.append(focusableButton('guide-row', { 'data-channel': String(ch.number), role: 'listitem', onClick: () => watchChannel(ch.number) },
        h('span', { className: 'guide-num', text: String(ch.number) }),
        h('span', { className: 'guide-name', text: ch.name }),
        h('span', { className: 'guide-prog', text: ch.programme }),
        h('span', { className: 'guide-time', text: ch.slot })));
    }
  }

  function watchChannel(number) {
    setChannel(number);
    navigate('live');
  }

  function buildReplay() {
    const grid = $('#replay-grid');
    REPLAYS.forEach((item, index) => {
      const ch = channelByNumber(item.channel);
      grid.append(focusableButton('replay-item', { 'data-index': String(index), onClick: () => play(item.title) },
        h('span', { className: 'replay-thumb', style: `background: linear-gradient(135deg, ${ch.colors[0]}, ${ch.colors[1]})`, 'aria-hidden': 'true' }),
        h('span', { className: 'replay-text' },
          h('span', { className: 'replay-title', text: item.title }),
          h('span', { className: 'replay-meta', text: `${ch.name} · ${item.when}` }))));
    });
  }

  function buildMovies() {
    const grid = $('#movie-grid');
    for (const movie of MOVIES) {
      grid.append(focusableButton('movie-tile', { 'data-slug': movie.slug, onClick: () => navigate('movie', { slug: movie.slug }) },
        h('span', { className: 'movie-poster', html: posterSvg(movie), 'aria-hidden': 'true' }),
        h('span', { className: 'movie-tile-title', text: movie.title })));
    }
  }

  function showMovie(params) {
    const movie = moviesBySlug.get(params.slug);
    $('#movie-title').textContent = movie.title;
    $('#movie-year').textContent = String(movie.year);
    $('#movie-genre').textContent = movie.genre;
    $('#movie-duration').textContent = movie.duration;
    $('#movie-synopsis').textContent = movie.synopsis;
    $('#movie-poster').innerHTML = posterSvg(movie);
    sectionFor('movie').dataset.slug = movie.slug;
  }

  // ---------------------------------------------------------------- posters

  let posterCount = 0;

  /** Shapes drawn over each poster's gradient, in a 320x180 box. */
  const POSTER_MOTIFS = {
    orbit: () => `
      <circle cx="40" cy="30" r="2" fill="#fff"/><circle cx="90" cy="140" r="1.5" fill="#fff"/>
      <circle cx="280" cy="40" r="2" fill="#fff"/><circle cx="60" cy="95" r="1.5" fill="#fff"/>
      <circle cx="300" cy="150" r="2" fill="#fff"/><circle cx="150" cy="25" r="1.5" fill="#fff"/>
      <circle cx="190" cy="95" r="44" fill="#f4a261"/>
      <circle cx="176" cy="82" r="12" fill="#e76f51" opacity="0.6"/>
      <ellipse cx="190" cy="95" rx="86" ry="16" fill="none" stroke="#ffe8c2" stroke-width="5" transform="rotate(-16 190 95)"/>
      <circle cx="95" cy="60" r="9" fill="#dfe7ff"/>`,
    river: () => `
      <path d="M0 120 Q80 95 160 118 T320 110 V180 H0 Z" fill="#0b3a46" opacity="0.55"/>
      <path d="M130 180 C70 150 230 130 160 100 S120 50 190 30 S250 8 240 0" fill="none" stroke="#e8fbff" stroke-width="16" stroke-linecap="round"/>
      <path d="M130 180 C70 150 230 130 160 100 S120 50 190 30 S250 8 240 0" fill="none" stroke="#8fdcef" stroke-width="6" stroke-linecap="round"/>`,
    lighthouse: () => `
      <polygon points="212,62 320,30 320,96" fill="#fff6c8" opacity="0.35"/>
      <polygon points="186,150 196,62 212,62 222,150" fill="#e9edf2"/>
      <rect x="192" y="92" width="24" height="12" fill="#c0392b"/>
      <rect x="190" y="50" width="28" height="14" rx="3" fill="#ffe27a"/>
      <polygon points="186,50 204,36 222,50" fill="#2b2f38"/>
      <rect x="0" y="150" width="320" height="30" fill="#0e1420"/>
      <path d="M20 162 H90 M120 170 H200 M230 160 H300" stroke="#56677f" stroke-width="3"/>`,
    paper: () => `
      <polygon points="60,140 100,60 140,140" fill="#ffffff" opacity="0.9"/>
      <polygon points="100,60 140,140 120,140" fill="#d9d4c7"/>
      <polygon points="150,140 195,40 240,140" fill="#fff8e8"/>
      <polygon points="195,40 240,140 215,140" fill="#e2d6bc"/>
      <polygon points="230,140 262,88 294,140" fill="#ffffff" opacity="0.85"/>
      <polygon points="170,30 180,14 190,26 200,10 210,26 220,14 230,30" fill="#8a3b12"/>
      <rect x="0" y="140" width="320" height="40" fill="#7a3413" opacity="0.8"/>`,
    neon: () => `
      <path d="M0 70 Q40 50 80 70 T160 70 T240 70 T320 70" fill="none" stroke="#ff3cac" stroke-width="5"/>
      <path d="M0 100 Q40 80 80 100 T160 100 T240 100 T320 100" fill="none" stroke="#2bd2ff" stroke-width="5"/>
      <path d="M0 130 Q40 110 80 130 T160 130 T240 130 T320 130" fill="none" stroke="#7cff6b" stroke-width="5"/>
      <rect x="30" y="20" width="16" height="40" fill="#2bd2ff" opacity="0.7"/>
      <rect x="56" y="8" width="20" height="52" fill="#ff3cac" opacity="0.7"/>
      <rect x="250" y="14" width="18" height="46" fill="#ffd400" opacity="0.7"/>`,
    valley: () => `
      <circle cx="230" cy="70" r="30" fill="#ffe3a3"/>
      <polygon points="0,150 70,70 130,130 190,60 260,120 320,80 320,180 0,180" fill="#6e2418"/>
      <polygon points="0,170 90,110 170,160 250,115 320,150 320,180 0,180" fill="#3d1410"/>`,
  };

  /** Inline SVG poster for a movie: its gradient plus its motif. */
  function posterSvg(movie) {
    const id = `poster-grad-${movie.slug}-${posterCount++}`;
    const { from, to, motif } = movie.poster;
    return `<svg viewBox="0 0 320 180" preserveAspectRatio="xMidYMid slice" xmlns="http://www.w3.org/2000/svg">
      <defs><linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/>
      </linearGradient></defs>
      <rect width="320" height="180" fill="url(#${id})"/>${POSTER_MOTIFS[motif]()}</svg>`;
  }

  // ===========================================================================
  // Search
  // ===========================================================================

  /** Everything searchable: movies first, then programmes (guide and replay). */
  const SEARCH_INDEX = (() => {
    const seen = new Set();
    const entries = [];
    const add = (entry) => {
      const key = `${entry.kind}:${entry.title.toLowerCase()}`;
      if (!seen.has(key)) {
        seen.add(key);
        entries.push(entry);
      }
    };
    MOVIES.forEach((m) => add({ kind: 'movie', title: m.title, slug: m.slug }));
    CHANNELS.forEach((c) => add({ kind: 'programme', title: c.programme }));
    REPLAYS.forEach((r) => add({ kind: 'programme', title: r.title }));
    return entries;
  })();

  const KIND_LABELS = { movie: 'Movie', programme: 'Programme' };

  const OSK_KEYS = [
    ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split('').map((c) => ({ label: c, key: c, value: c })),
    { label: 'Space', key: 'SPACE', value: ' ', className: 'wide-4' },
    { label: 'Del', key: 'DEL', value: null, className: 'wide-2' },
  ];

  function buildKeyboard() {
    const osk = $('#osk');
    for (const k of OSK_KEYS) {
      osk.append(focusableButton(`osk-key ${k.className || ''}`.trim(), {
        'data-key': k.key,
        text: k.label,
        onClick: () => (k.value === null ? deleteSearchChar() : appendSearchText(k.value)),
      }));
    }
  }

  const searchInput = () => $('#search-input');

  function appendSearchText(text) {
    searchInput().value += text;
    renderResults();
  }

  function deleteSearchChar() {
    searchInput().value = searchInput().value.slice(0, -1);
    renderResults();
  }

  function searchMatches(query) {
    const q = query.trim().toLowerCase();
    return q ? SEARCH_INDEX.filter((e) => e.title.toLowerCase().includes(q)) : [];
  }

  function renderResults() {
    const query = searchInput().value;
    const results = searchMatches(query);
    const list = $('#search-results');
    list.replaceChildren(...results.map(resultButton));
    const empty = query.trim() === '';
    $('#search-hint').hidden = !empty;
    $('#search-empty').hidden = empty || results.length > 0;
  }

  function resultButton(entry) {
    const attrs = { 'data-kind': entry.kind, role: 'listitem', onClick: () => openResult(entry) };
    if (entry.slug) attrs['data-slug'] = entry.slug;
    return focusableButton('search-result', attrs,
      h('span', { className: 'result-title', text: entry.title }),
      h('span', { className: 'result-kind', text: KIND_LABELS[entry.kind] }));
  }

  function openResult(entry) {
    if (entry.kind === 'movie') navigate('movie', { slug: entry.slug });
    else play(entry.title);
  }

  /** Enter in the search field jumps to the first result. */
  function focusFirstResult() {
    const first = $('#search-results .search-result');
    if (first) setFocus(first);
  }

  /** Printable keys typed while the field is not focused still search. */
  function typeIntoSearch(event) {
    appendSearchText(event.key);
  }

  // ===========================================================================
  // Settings and parental PIN
  // ===========================================================================

  const onOff = (flag) => (flag ? 'On' : 'Off');

  function renderSettings() {
    const subtitles = $('#setting-subtitles');
    subtitles.textContent = `Subtitles: ${onOff(state.subtitles)}`;
    subtitles.dataset.value = state.subtitles ? 'on' : 'off';

    const audio = $('#setting-audio');
    const language = AUDIO_LANGUAGES[state.audioIndex];
    audio.textContent = `Audio language: ${language}`;
    audio.dataset.value = language;

    const parental = $('#setting-parental');
    parental.textContent = `Parental lock: ${onOff(state.parentalLock)}`;
    parental.dataset.value = state.parentalLock ? 'on' : 'off';
  }

  function toggleSubtitles() {
    state.subtitles = !state.subtitles;
    renderSettings();
  }

  function cycleAudio() {
    state.audioIndex = (state.audioIndex + 1) % AUDIO_LANGUAGES.length;
    renderSettings();
  }

  /** Digit keys go before Cancel and OK, which share the keypad's last row. */
  function buildPinPad() {
    const pad = $('#pin-pad');
    const cancel = $('#pin-cancel');
    for (const digit of '1234567890') {
      pad.insertBefore(focusableButton('pin-key', { 'data-digit': digit, text: digit, onClick: () => appendPinDigit(digit) }), cancel);
    }
  }

  const pinInput = () => $('#pin-input');

  function openPinDialog() {
    state.pinOpen = true;
    pinInput().value = '';
    $('#pin-error').hidden = true;
    $('#pin-dialog').hidden = false;
    setFocus(pinInput());
  }

  function closePinDialog() {
    if (!state.pinOpen) return;
    state.pinOpen = false;
    $('#pin-dialog').hidden = true;
    pinInput().value = '';
    $('#pin-error').hidden = true;
    if (state.screen === 'settings') setFocus($('#setting-parental'));
  }

  function appendPinDigit(digit) {
    const input = pinInput();
    if (input.value.length < 4) input.value += digit;
  }

  /** Keep only digits in the PIN field, whatever was typed or pasted. */
  function sanitizePin() {
    const input = pinInput();
    const digits = input.value.replace(/\D/g, '').slice(0, 4);
    if (digits !== input.value) input.value = digits;
  }

  function submitPin() {
    if (pinInput().value === state.pin) {
      state.parentalLock = !state.parentalLock;
      renderSettings();
      closePinDialog();
    } else {
      pinInput().value = '';
      $('#pin-error').hidden = false;
      setFocus(pinInput());
    }
  }

  // ===========================================================================
  // Player
  // ===========================================================================

  /** Last whole second written to the time label (avoids needless DOM writes). */
  let lastShownSecond = -1;

  function play(title) {
    navigate('player', { title });
  }

  function startClip(title) {
    state.title = title;
    state.clipPos = 0;
    lastShownSecond = -1;
    $('#player-title').textContent = title;
    setPaused(false);
    renderPlayerInfo();
    renderProgress();
  }

  function setPaused(paused) {
    state.paused = paused;
    const label = $('#player-state');
    label.textContent = paused ? 'Paused' : 'Playing';
    label.dataset.state = paused ? 'paused' : 'playing';
    $('#player-state-row').dataset.state = label.dataset.state;
    $('#btn-playpause').textContent = paused ? 'Play' : 'Pause';
    $('#player-pause-overlay').hidden = !paused;
  }

  const togglePause = () => setPaused(!state.paused);

  function renderPlayerInfo() {
    $('#player-audio').textContent = AUDIO_LANGUAGES[state.audioIndex];
    $('#player-subtitles').textContent = onOff(state.subtitles);
    $('#player-subtitle').hidden = !state.subtitles;
  }

  /** The subtitle line changes every four seconds of clip time. */
  function renderSubtitle(second) {
    $('#player-subtitle').textContent = SUBTITLE_LINES[Math.floor(second / 4) % SUBTITLE_LINES.length];
  }

  const formatTime = (seconds) => {
    const s = Math.floor(seconds);
    return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
  };

  function renderProgress() {
    const fraction = state.clipPos / CLIP_SECONDS;
    $('#player-progress-fill').style.width = `${(fraction * 100).toFixed(3)}%`;
    const second = Math.floor(state.clipPos);
    if (second !== lastShownSecond) {
      lastShownSecond = second;
      $('#player-time').textContent = `${formatTime(second)} / ${formatTime(CLIP_SECONDS)}`;
      $('#player-progress').setAttribute('aria-valuenow', String(second));
      if (state.subtitles) renderSubtitle(second);
    }
  }

  const isPlaying = () => state.screen === 'player' && !state.paused;

  // ===========================================================================
  // Canvas animation
  // ===========================================================================

  /** Size a canvas backing store for the device pixel ratio; returns its 2D context. */
  function setupCanvas(canvas) {
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.width;
    const height = canvas.height;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    const ctx = canvas.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    return { ctx, width, height };
  }

  function roundRect(ctx, x, y, w, h, r) {
    ctx.beginPath();
    ctx.moveTo(x + r, y);
    ctx.arcTo(x + w, y, x + w, y + h, r);
    ctx.arcTo(x + w, y + h, x, y + h, r);
    ctx.arcTo(x, y + h, x, y, r);
    ctx.arcTo(x, y, x + w, y, r);
    ctx.closePath();
  }

  /** Live picture: channel colours, scrolling stripes, an equaliser and the channel name. */
  function drawLive(view, time) {
    const { ctx, width: w, height: hgt } = view;
    const ch = channelByNumber(state.channel);

    const bg = ctx.createLinearGradient(0, 0, w, hgt);
    bg.addColorStop(0, ch.colors[0]);
    bg.addColorStop(1, ch.colors[1]);
    ctx.fillStyle = bg;
    ctx.fillRect(0, 0, w, hgt);

    // Diagonal stripes scrolling to the right.
    const spacing = 140;
    const offset = (time * 0.18) % spacing;
    ctx.fillStyle = 'rgba(255, 255, 255, 0.10)';
    for (let x = -hgt - spacing + offset; x < w + spacing; x += spacing) {
      ctx.beginPath();
      ctx.moveTo(x, 0);
      ctx.lineTo(x + 60, 0);
      ctx.lineTo(x + 60 + hgt, hgt);
      ctx.lineTo(x + hgt, hgt);
      ctx.fill();
    }

    // Equaliser bars along the bottom edge.
    const bars = 28;
    const barWidth = w / bars;
    ctx.fillStyle = 'rgba(0, 0, 0, 0.28)';
    for (let i = 0; i < bars; i++) {
      const level = 0.5 + 0.5 * Math.sin(time / 260 + i * 0.7) * Math.cos(time / 610 + i * 0.3);
      const barHeight = 20 + level * 110;
      ctx.fillRect(i * barWidth + 3, hgt - barHeight, barWidth - 6, barHeight);
    }

    // A ball bouncing around the frame.
    const bx = 60 + Math.abs(((time * 0.22) % (2 * (w - 120))) - (w - 120));
    const by = 60 + Math.abs(((time * 0.15) % (2 * (hgt - 120))) - (hgt - 120));
    ctx.fillStyle = 'rgba(255, 255, 255, 0.35)';
    ctx.beginPath();
    ctx.arc(bx, by, 26, 0, Math.PI * 2);
    ctx.fill();

    // Channel identity on a solid panel so it stays legible.
    ctx.fillStyle = '#05070d';
    roundRect(ctx, w / 2 - 250, hgt / 2 - 80, 500, 130, 16);
    ctx.fill();
    ctx.fillStyle = '#ffffff';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.font = '700 48px "DejaVu Sans", sans-serif';
    ctx.fillText(ch.name, w / 2, hgt / 2 - 38);
    ctx.font = '28px "DejaVu Sans", sans-serif';
    ctx.fillStyle = '#c3cbe3';
    ctx.fillText(ch.programme, w / 2, hgt / 2 + 14);

    // "LIVE" tag in the top-left corner.
    ctx.fillStyle = '#d62828';
    roundRect(ctx, 20, 20, 92, 40, 8);
    ctx.fill();
    ctx.fillStyle = '#ffffff';
    ctx.font = '700 24px "DejaVu Sans", sans-serif';
    ctx.fillText('LIVE', 66, 41);
  }

  /** Hash a string to a number in [0, 1). */
  function hash01(text) {
    let value = 2166136261;
    for (let i = 0; i < text.length; i++) {
      value ^= text.charCodeAt(i);
      value = Math.imul(value, 16777619);
    }
    return (value >>> 0) / 4294967296;
  }

  /** Player picture: a scene coloured by the title, animated by clip time only. */
  function drawPlayer(view, pos) {
    const { ctx, width: w, height: hgt } = view;
    const hue = Math.floor(hash01(state.title) * 360);

    const sky = ctx.createLinearGradient(0, 0, 0, hgt);
    sky.addColorStop(0, `hsl(${hue}, 55%, 18%)`);
    sky.addColorStop(1, `hsl(${(hue + 40) % 360}, 65%, 52%)`);
    ctx.fillStyle = sky;
    ctx.fillRect(0, 0, w, hgt);

    // Sun drifting across the sky.
    const sunX = ((pos * 40) % (w + 200)) - 100;
    ctx.fillStyle = `hsl(${(hue + 180) % 360}, 90%, 75%)`;
    ctx.beginPath();
    ctx.arc(sunX, hgt * 0.3, 46, 0, Math.PI * 2);
    ctx.fill();

    // Particles drifting left at different speeds.
    ctx.fillStyle = 'rgba(255, 255, 255, 0.7)';
    for (let i = 0; i < 36; i++) {
      const speed = 60 + (i % 7) * 25;
      const x = w - ((((i * 97) % w) + pos * speed) % w);
      const y = (i * 53) % (hgt * 0.6);
      ctx.fillRect(x, y, 3, 3);
    }

    // Three layers of rolling hills.
    for (let layer = 0; layer < 3; layer++) {
      const base = hgt * (0.62 + layer * 0.12);
      const speed = 90 + layer * 70;
      ctx.fillStyle = `hsl(${(hue + 200 + layer * 15) % 360}, 40%, ${28 - layer * 8}%)`;
      ctx.beginPath();
      ctx.moveTo(0, hgt);
      for (let x = 0; x <= w; x += 8) {
        const y = base + Math.sin((x + pos * speed) / (90 + layer * 30)) * (22 - layer * 4);
        ctx.lineTo(x, y);
      }
      ctx.lineTo(w, hgt);
      ctx.closePath();
      ctx.fill();
    }
  }

  let liveView = null;
  let playerView = null;
  let lastFrame = null;

  /** One loop for all animation; only the visible picture is redrawn. */
  function frame(now) {
    const dt = lastFrame === null ? 0 : Math.min((now - lastFrame) / 1000, 1);
    lastFrame = now;
    if (state.screen === 'live') drawLive(liveView, now);
    if (isPlaying()) {
      state.clipPos = (state.clipPos + dt) % CLIP_SECONDS;
      drawPlayer(playerView, state.clipPos);
      renderProgress();
    }
    requestAnimationFrame(frame);
  }

  // ===========================================================================
  // Screen registry
  // ===========================================================================

  /*
   * Each screen may define:
   *   enter(params, opts)  called when it becomes active (opts.restoring on Back)
   *   leave()              called when another screen replaces it
   *   initialFocus         selector focused on entry (default: first focusable)
   *   parent               where Back goes when there is no history
   *   keys                 screen-specific key actions (see keyAction)
   */
  const screens = {
    home: {},
    live: {
      enter: () => {
        setChannel(state.channel);
        showBanner();
        drawLive(liveView, performance.now());
      },
      leave: hideBanner,
      keys: { chup: channelUp, chdown: channelDown, digit: tuneDigit },
    },
    guide: {},
    replay: {},
    movies: {},
    movie: {
      parent: 'movies',
      initialFocus: '#btn-play',
      enter: (params) => showMovie(params),
    },
    search: {
      initialFocus: '#search-input',
      enter: (params, opts) => {
        if (opts.restoring) return;
        searchInput().value = '';
        renderResults();
      },
      keys: { char: typeIntoSearch, digit: typeIntoSearch },
    },
    settings: {
      enter: renderSettings,
      leave: closePinDialog,
    },
    player: {
      enter: (params, opts) => {
        if (!opts.restoring) startClip(params.title || state.title);
        drawPlayer(playerView, state.clipPos);
      },
      leave: () => setPaused(true),
      keys: { playpause: togglePause, play: () => setPaused(false), pause: () => setPaused(true) },
    },
  };

  /** Keys while the PIN dialog is open. */
  const DIALOG_KEYS = {
    back: closePinDialog,
    digit: (event) => appendPinDigit(event.key),
  };

  // ===========================================================================
  // Keyboard
  // ===========================================================================

  const KEY_ACTIONS = {
    ArrowUp: 'up',
    ArrowDown: 'down',
    ArrowLeft: 'left',
    ArrowRight: 'right',
    Enter: 'ok',
    Backspace: 'back',
    Escape: 'back',
    BrowserBack: 'back',
    GoBack: 'back',
    Home: 'home',
    BrowserHome: 'home',
    PageUp: 'chup',
    PageDown: 'chdown',
    ChannelUp: 'chup',
    ChannelDown: 'chdown',
    MediaPlayPause: 'playpause',
    MediaPlay: 'play',
    MediaPause: 'pause',
  };

  /** Logical action for a key event: a KEY_ACTIONS value, 'digit', 'char' or null. */
  function keyAction(event) {
    if (KEY_ACTIONS[event.key]) return KEY_ACTIONS[event.key];
    if (event.key.length === 1) return /\d/.test(event.key) ? 'digit' : 'char';
    return null;
  }

  /** Actions available everywhere. */
  const GLOBAL_KEYS = {
    up: () => moveFocus('up'),
    down: () => moveFocus('down'),
    left: () => moveFocus('left'),
    right: () => moveFocus('right'),
    ok: activateFocused,
    back: goBack,
    home: goHome,
  };

  const isTextField = (node) => node && node.tagName === 'INPUT';

  /**
   * Keys inside a text field. Returns 'native' to let the browser edit the
   * text, 'done' when handled here, or null to fall through to the app keys.
   */
  function textFieldKey(event, action, input) {
    const atStart = input.selectionStart === 0 && input.selectionEnd === 0;
    const atEnd = input.selectionStart === input.value.length;
    switch (action) {
      case 'char':
      case 'digit':
        return 'native';
      case 'back':
        // Backspace edits the text; in an empty field it acts as Back.
        return event.key === 'Backspace' && input.value !== '' ? 'native' : null;
      case 'left':
        return atStart ? null : 'native';
      case 'right':
        return atEnd ? null : 'native';
      case 'ok':
        if (input.id === 'pin-input') submitPin();
        else focusFirstResult();
        return 'done';
      default:
        return null;
    }
  }

  function onKeyDown(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const action = keyAction(event);
    if (!action) return;

    const active = document.activeElement;
    if (isTextField(active)) {
      const verdict = textFieldKey(event, action, active);
      if (verdict === 'native') return;
      if (verdict === 'done') {
        event.preventDefault();
        return;
      }
    }

    const scopeKeys = state.pinOpen ? DIALOG_KEYS : screens[state.screen].keys || {};
    const handler = scopeKeys[action] || GLOBAL_KEYS[action];
    if (!handler) return;
    event.preventDefault();
    handler(event);
  }

  // ===========================================================================
  // Wiring
  // ===========================================================================

  function bindStaticControls() {
    for (const item of $$('.menu-item')) {
      item.addEventListener('click', () => navigate(item.dataset.target));
    }
    $('#live-player').addEventListener('click', showBanner);
    $('#btn-ch-up').addEventListener('click', channelUp);
    $('#btn-ch-down').addEventListener('click', channelDown);
    $('#btn-play').addEventListener('click', () => play(moviesBySlug.get(state.params.slug).title));
    $('#search-input').addEventListener('input', renderResults);
    $('#setting-subtitles').addEventListener('click', toggleSubtitles);
    $('#setting-audio').addEventListener('click', cycleAudio);
    $('#setting-parental').addEventListener('click', openPinDialog);
    $('#pin-input').addEventListener('input', sanitizePin);
    $('#pin-form').addEventListener('submit', (event) => {
      event.preventDefault();
      submitPin();
    });
    $('#pin-ok').addEventListener('click', submitPin);
    $('#pin-cancel').addEventListener('click', closePinDialog);
    $('#btn-playpause').addEventListener('click', togglePause);
  }

  function bindGlobalEvents() {
    document.addEventListener('keydown', onKeyDown);
    // Keep the focus highlight in step with mouse clicks and Tab.
    document.addEventListener('focusin', (event) => {
      const node = event.target.closest && event.target.closest('.focusable');
      if (node) markFocused(node);
    });
    // Clicking empty space must not drop the D-pad focus.
    document.addEventListener('mousedown', (event) => {
      if (!event.target.closest('.focusable')) event.preventDefault();
    });
    window.addEventListener('hashchange', onHashChange);
  }

  /** Read-only view of the app state, for debugging and automation. */
  function exposeState() {
    const api = {};
    const getters = {
      screen: () => state.screen,
      channel: () => state.channel,
      subtitles: () => state.subtitles,
      audio: () => AUDIO_LANGUAGES[state.audioIndex],
      parentalLock: () => state.parentalLock,
      playing: isPlaying,
      title: () => state.title,
    };
    for (const [name, get] of Object.entries(getters)) {
      Object.defineProperty(api, name, { get, enumerable: true });
    }
    Object.defineProperty(window, 'streamtv', { value: Object.freeze(api), enumerable: true });
  }

  function init() {
    buildGuide();
    buildReplay();
    buildMovies();
    buildKeyboard();
    buildPinPad();
    liveView = setupCanvas($('#live-player'));
    playerView = setupCanvas($('#player-canvas'));
    bindStaticControls();
    bindGlobalEvents();
    exposeState();
    setChannel(state.channel);
    renderSettings();
    setPaused(true);

    const route = parseHash(location.hash);
    showScreen(route.screen, route.params);
    requestAnimationFrame(frame);
  }

  init();
})();

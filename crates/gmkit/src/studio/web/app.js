// gmkit studio: the page. Vanilla JavaScript, no framework, no build step, nothing loaded
// from outside this server. Every request carries the session token (docs/studio.md).
'use strict';

const TOKEN = new URLSearchParams(location.search).get('token') || '';
const $ = (sel, root) => (root || document).querySelector(sel);
const MAX_LISTED = 1000;   // items rendered per kind in the tree (the count is always shown)
const MAX_FRAMES = 200;    // frame images shown per sprite
const MAX_STRINGS = 500;   // string rows rendered at once

let tree = null;           // /api/tree
let version = 0;           // bumped after each edit: image URLs change so they reload

function url(path) {
  return path + (path.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(TOKEN) +
    (version ? '&v=' + version : '');
}

async function api(path, opts) {
  const o = Object.assign({}, opts || {});
  o.headers = Object.assign({ 'X-Gmkit-Token': TOKEN }, o.headers || {});
  const r = await fetch(path, o);
  const type = r.headers.get('content-type') || '';
  const body = type.includes('json') ? await r.json() : await r.text();
  if (!r.ok && !(body && body.errors)) {
    throw new Error((body && body.error) || (typeof body === 'string' ? body : r.statusText) ||
      ('HTTP ' + r.status));
  }
  return body;
}

const post = (path, body, type) => api(path, {
  method: 'POST',
  headers: { 'Content-Type': type || 'application/json' },
  body: type ? body : JSON.stringify(body),
});

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k);
  return e;
}

function showError(e) {
  const box = $('#error');
  box.textContent = e ? String(e.message || e) : '';
  box.hidden = !e;
}

function props(rows) {
  const t = el('table', { class: 'props' });
  for (const [k, v] of rows) {
    if (v === null || v === undefined) continue;
    t.append(el('tr', {}, el('td', { text: k }), el('td', {}, v instanceof Node ? v : String(v))));
  }
  return t;
}

function view(...kids) {
  const v = $('#view');
  v.replaceChildren(...kids);
  v.scrollTop = 0;
  return v;
}

// ---------------------------------------------------------------- the asset tree

function renderItems(k, ul, filter) {
  ul.replaceChildren();
  let shown = 0;
  for (const a of k.assets) {
    if (filter && !a.name.toLowerCase().includes(filter)) continue;
    if (shown++ >= MAX_LISTED) {
      ul.append(el('li', { class: 'more', text: '… narrow with the search box' }));
      break;
    }
    ul.append(el('li', {
      'data-asset-kind': k.kind, 'data-asset-index': a.index, title: a.name,
    }, el('span', { class: 'i', text: a.index }), a.name));
  }
  return shown;
}

function buildTree() {
  const box = $('#asset-tree');
  box.replaceChildren();
  for (const k of tree.kinds) {
    const ul = el('ul');
    const d = el('details', { class: 'kind', 'data-kind': k.kind, 'data-count': k.count },
      el('summary', {}, k.kind, el('span', { class: 'n', text: k.count })), ul);
    if (k.kind === 'strings') {
      d.querySelector('summary').addEventListener('click', (ev) => { ev.preventDefault(); showStrings(); });
    } else {
      d.open = k.count > 0 && k.count <= 300;
      let rendered = false;
      const fill = () => { if (!rendered) { rendered = true; renderItems(k, ul, ''); } };
      if (d.open) fill();
      d.addEventListener('toggle', () => { if (d.open) fill(); });
      d._fill = (f) => { rendered = true; return renderItems(k, ul, f); };
    }
    box.append(d);
  }
}

function filterTree(text) {
  const f = text.trim().toLowerCase();
  for (const d of document.querySelectorAll('#asset-tree details.kind')) {
    if (!d._fill) continue;
    const k = tree.kinds.find((x) => x.kind === d.dataset.kind);
    const n = d._fill(f);
    d.hidden = f !== '' && n === 0;
    if (f !== '') d.open = n > 0;
    else d.open = k.count > 0 && k.count <= 300;
  }
}

$('#asset-tree').addEventListener('click', (ev) => {
  const li = ev.target.closest('[data-asset-kind]');
  if (!li) return;
  for (const s of document.querySelectorAll('#asset-tree li.sel')) s.classList.remove('sel');
  li.classList.add('sel');
  openAsset(li.dataset.assetKind, Number(li.dataset.assetIndex), li.title);
});

$('#search').addEventListener('input', (ev) => filterTree(ev.target.value));

let current = null;
async function openAsset(kind, i, name) {
  current = [kind, i, name];
  showError(null);
  stopAnimation();
  try {
    switch (kind) {
      case 'sprites': return await showSprite(i);
      case 'objects': return await showObject(i);
      case 'rooms': return await showRoom(i);
      case 'sounds': return await showSound(i);
      case 'scripts': return await showScript(i);
      case 'code': return await showCode(name, name);
      case 'backgrounds': return showImage('Background', name, '/api/backgrounds/' + i + '.png');
      case 'fonts': return showImage('Font', name, '/api/fonts/' + i + '.png');
      case 'textures': return showImage('Texture page', name, '/api/textures/' + i + '.png');
      default: return view(el('h2', { text: kind + ' ' + i + ': ' + name }),
        el('p', { class: 'hint', text: 'Nothing more to show for this kind yet.' }));
    }
  } catch (e) { showError(e); }
}

// ---------------------------------------------------------------- images

function showImage(what, name, path) {
  const img = el('img', { class: 'sheet checker', src: url(path), alt: name });
  img.addEventListener('error', () => showError(what + ' ' + name + ': the image could not be produced'));
  view(el('h2', { text: what + ': ' + name }), img);
}

let timer = null;
function stopAnimation() { if (timer) { clearInterval(timer); timer = null; } }

function dropZone(label, accept, send) {
  const input = el('input', { type: 'file', accept });
  const z = el('label', { class: 'drop' }, label + ' ', input);
  const go = async (file) => {
    showError(null);
    try {
      await send(new Uint8Array(await file.arrayBuffer()));
      await edited();
      // The open view shows the new frame or audio at once.
      if (current) await openAsset(...current);
    } catch (e) { showError(e); }
  };
  input.addEventListener('change', () => input.files[0] && go(input.files[0]));
  z.addEventListener('dragover', (ev) => { ev.preventDefault(); z.classList.add('over'); });
  z.addEventListener('dragleave', () => z.classList.remove('over'));
  z.addEventListener('drop', (ev) => {
    ev.preventDefault(); z.classList.remove('over');
    if (ev.dataTransfer.files[0]) go(ev.dataTransfer.files[0]);
  });
  return z;
}

async function showSprite(i) {
  const s = await api('/api/sprites/' + i);
  const frameUrl = (f) => url('/api/sprites/' + i + '/frames/' + f + '.png');
  const n = s.frames;
  // Frames per second: speed type 0 is frames per second, 1 frames per game frame (at 60).
  let fps = 15;
  if (s.speed !== null && s.speed > 0) fps = s.speed_type === 1 ? s.speed * 60 : s.speed;
  fps = Math.max(0.5, Math.min(fps, 60));
  const stage = el('div', { class: 'stage checker' });
  const anim = el('img', { class: 'anim', alt: s.name, width: s.width, height: s.height });
  const overlay = el('canvas', { width: s.width, height: s.height });
  stage.append(anim, overlay);
  const ctx = overlay.getContext('2d');
  if (ctx) {
    ctx.strokeStyle = 'rgba(255,80,80,.9)';
    const b = s.bbox;
    ctx.strokeRect(b.left + .5, b.top + .5, Math.max(0, b.right - b.left), Math.max(0, b.bottom - b.top));
    ctx.strokeStyle = 'rgba(80,200,255,.95)';
    ctx.beginPath();
    ctx.moveTo(s.origin.x - 4, s.origin.y + .5); ctx.lineTo(s.origin.x + 5, s.origin.y + .5);
    ctx.moveTo(s.origin.x + .5, s.origin.y - 4); ctx.lineTo(s.origin.x + .5, s.origin.y + 5);
    ctx.stroke();
  }
  if (n > 0) {
    let f = 0;
    anim.src = frameUrl(0);
    if (n > 1) timer = setInterval(() => { f = (f + 1) % n; anim.src = frameUrl(f); }, 1000 / fps);
  }
  const frames = el('div', { class: 'frames' });
  for (let f = 0; f < Math.min(n, MAX_FRAMES); f++) {
    frames.append(el('figure', {},
      el('img', { class: 'frame checker', 'data-frame': f, src: frameUrl(f), alt: 'frame ' + f }),
      el('figcaption', { text: String(f) })));
  }
  const pick = el('select', { id: 'frame-pick' });
  for (let f = 0; f <= n; f++) pick.append(el('option', { value: f, text: f < n ? 'frame ' + f : 'new frame ' + f }));
  const zone = dropZone('Drop a ' + s.width + '×' + s.height + ' PNG to replace', 'image/png',
    (bytes) => post('/api/sprites/' + i + '/frames/' + pick.value, bytes, 'image/png'));
  zone.prepend(pick);
  view(el('h2', { text: 'Sprite ' + i + ': ' + s.name }),
    props([['size', s.width + ' × ' + s.height], ['origin', s.origin.x + ', ' + s.origin.y],
      ['bounding box', `${s.bbox.left}, ${s.bbox.top} → ${s.bbox.right}, ${s.bbox.bottom} (mode ${s.bbox.mode})`],
      ['frames', n], ['collision masks', s.masks],
      ['speed', s.speed === null ? null : s.speed + (s.speed_type === 1 ? ' per game frame' : ' fps')]]),
    stage, el('p', { class: 'hint', text: 'origin in blue, collision box in red; playing at ' + fps.toFixed(1) + ' fps' }),
    frames, zone);
}

// ---------------------------------------------------------------- sounds

async function showSound(i) {
  const s = await api('/api/sounds/' + i);
  const audio = s.audio_type ? el('audio', { controls: true, src: url('/api/sounds/' + i + '/audio') }) :
    el('p', { class: 'hint', text: 'No embedded audio (streamed from a file beside the game).' });
  view(el('h2', { text: 'Sound ' + i + ': ' + s.name }),
    props([['type', s.audio_type], ['bytes', s.audio_bytes],
      ['length', s.seconds === null ? null : s.seconds.toFixed(2) + ' s'], ['volume', s.volume], ['pitch', s.pitch]]),
    audio,
    dropZone('Drop a WAV/OGG to replace the audio', 'audio/*',
      (bytes) => post('/api/sounds/' + i + '/audio', bytes, 'application/octet-stream')));
}

// ---------------------------------------------------------------- strings

let strings = null;
async function showStrings() {
  showError(null);
  stopAnimation();
  try {
    strings = await api('/api/strings');
    const search = el('input', { id: 'string-search', type: 'search', placeholder: 'Search strings' });
    const list = el('div', { class: 'strings-list' });
    const apply = el('button', { id: 'apply-string', type: 'button', text: 'Apply changes' });
    const render = () => {
      const f = search.value.toLowerCase();
      list.replaceChildren();
      let shown = 0;
      for (const s of strings) {
        if (f && !s.text.toLowerCase().includes(f)) continue;
        if (shown++ >= MAX_STRINGS) { list.append(el('p', { class: 'more', text: '… narrow with the search box' })); break; }
        const input = el('input', { 'data-string-index': s.index, value: s.text });
        input.addEventListener('input', () => input.classList.toggle('changed', input.value !== s.text));
        input.addEventListener('keydown', (ev) => { if (ev.key === 'Enter') applyStrings(); });
        list.append(el('div', { class: 'row' }, el('span', { text: s.index }), input));
      }
    };
    search.addEventListener('input', render);
    apply.addEventListener('click', applyStrings);
    render();
    view(el('h2', { text: 'Strings (' + strings.length + ')' }), search, ' ', apply, list);
  } catch (e) { showError(e); }
}

async function applyStrings() {
  showError(null);
  try {
    for (const input of document.querySelectorAll('input[data-string-index]')) {
      const i = Number(input.dataset.stringIndex);
      const s = strings.find((x) => x.index === i);
      if (!s || input.value === s.text) continue;
      await post('/api/strings/' + i, { text: input.value });
      s.text = input.value;
      input.classList.remove('changed');
    }
    await edited();
  } catch (e) { showError(e); }
}

// ---------------------------------------------------------------- code

const KEYWORDS = new Set(('if else while do until for repeat switch case default break continue return exit ' +
  'with var globalvar function constructor new delete static enum try catch finally throw and or not xor div mod ' +
  'true false self other all noone global local undefined then begin end').split(' '));

function highlight(text) {
  const out = document.createDocumentFragment();
  const re = /(\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|(@?"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?)|(\b(?:0x[0-9a-fA-F]+|\d+(?:\.\d*)?)\b|\$[0-9a-fA-F]+)|([A-Za-z_]\w*)/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) out.append(text.slice(last, m.index));
    const cls = m[1] ? 'c' : m[2] ? 's' : m[3] ? 'n' : KEYWORDS.has(m[4]) ? 'k' : null;
    out.append(cls ? el('span', { class: cls, text: m[0] }) : m[0]);
    last = m.index + m[0].length;
  }
  out.append(text.slice(last));
  return out;
}

function codeBlock(text) {
  const pre = el('pre', { class: 'code' });
  pre.append(highlight(text || ''));
  return pre;
}

let checkTimer = null;
let checkSeq = 0;
function showErrors(box, errors) {
  box.replaceChildren();
  box.classList.toggle('ok', errors.length === 0);
  if (errors.length === 0) { box.textContent = 'compiles'; return; }
  for (const e of errors) {
    box.append(el('div', { 'data-error-line': e.line, text: `line ${e.line}, column ${e.column}: ${e.message}` }));
  }
}

// The editor of one code entry: textarea, errors (checked as you type), highlighted view, asm.
function editor(name, code) {
  const wrap = el('div', { class: 'code-wrap', 'data-code': name });
  if (code.gml === null || code.gml === undefined) {
    wrap.append(el('p', { class: 'hint', text: 'No GML for this entry' + (code.note ? ': ' + code.note : '') + '.' }),
      codeBlock(code.asm || ''));
    return wrap;
  }
  const ta = el('textarea', { id: 'gml-editor', spellcheck: 'false' });
  ta.value = code.gml;
  const errors = el('div', { id: 'gml-errors' });
  const preview = codeBlock(code.gml);
  const asm = el('pre', { class: 'code', id: 'asm-view', hidden: true, text: code.asm || '' });
  const check = async () => {
    const seq = ++checkSeq;
    try {
      const r = await post('/api/code/' + encodeURIComponent(name) + '/check', { gml: ta.value });
      if (seq === checkSeq) showErrors(errors, r.errors || []);
    } catch (e) { showError(e); }
  };
  ta.addEventListener('input', () => {
    preview.replaceChildren(highlight(ta.value));
    clearTimeout(checkTimer);
    checkTimer = setTimeout(check, 400);
  });
  ta.addEventListener('keydown', (ev) => {
    if (ev.key === 'Tab') { ev.preventDefault(); ta.setRangeText('    ', ta.selectionStart, ta.selectionEnd, 'end'); }
  });
  const apply = async () => {
    showError(null);
    clearTimeout(checkTimer);
    try {
      const r = await post('/api/code/' + encodeURIComponent(name), { gml: ta.value });
      showErrors(errors, r.errors || []);
      if (r.ok) await edited();
    } catch (e) { showError(e); }
  };
  wrap.append(el('h3', { text: name }),
    el('div', {}, el('button', { id: 'gml-check', type: 'button', onclick: check }, 'Check'), ' ',
      el('button', { id: 'gml-apply', type: 'button', onclick: apply }, 'Apply'), ' ',
      el('button', { id: 'show-asm', type: 'button', onclick: () => { asm.hidden = !asm.hidden; } }, '.asm')),
    errors, ta, asm, el('p', { class: 'hint', text: 'highlighted:' }), preview);
  if (code.note) wrap.append(el('p', { class: 'hint', text: code.note }));
  return wrap;
}

async function showCode(title, name) {
  const code = await api('/api/code/' + encodeURIComponent(name));
  view(el('h2', { text: title }), editor(name, code));
}

async function showScript(i) {
  const s = await api('/api/scripts/' + i);
  if (!s.code) return view(el('h2', { text: 'Script ' + i + ': ' + s.name }), el('p', { class: 'hint', text: 'No code entry.' }));
  const code = await api('/api/code/' + encodeURIComponent(s.code));
  view(el('h2', { text: 'Script ' + i + ': ' + s.name }), editor(s.code, code));
}

function assetLink(kind, i, name) {
  if (i === null || i === undefined) return '-';
  return el('a', { href: '#', onclick: (ev) => { ev.preventDefault(); openAsset(kind, i, name); } }, name || String(i));
}

async function showObject(i) {
  const o = await api('/api/objects/' + i);
  const events = el('div', { class: 'events' });
  const pane = el('div', { id: 'event-pane' });
  for (const ev of o.events) {
    const b = el('button', { type: 'button', 'data-event': ev.name, text: ev.name });
    b.addEventListener('click', () => {
      for (const x of events.querySelectorAll('button')) x.classList.remove('sel');
      b.classList.add('sel');
      pane.replaceChildren(ev.code ? editor(ev.code, ev) : el('p', { class: 'hint', text: 'This event runs no code entry.' }));
    });
    events.append(b);
  }
  const sprite = o.sprite_index === null ? null :
    el('img', { class: 'frame-thumb checker', src: url('/api/sprites/' + o.sprite_index + '/frames/0.png'), alt: '' });
  view(el('h2', { text: 'Object ' + i + ': ' + o.name }),
    props([['sprite', assetLink('sprites', o.sprite_index, o.sprite)], ['', sprite],
      ['parent', assetLink('objects', o.parent_index, o.parent)], ['mask', o.mask],
      ['visible', o.visible], ['solid', o.solid], ['persistent', o.persistent], ['depth', o.depth],
      ['physics', o.physics]]),
    el('h3', { text: 'Events (' + o.events.length + ')' }), events, pane);
  const first = events.querySelector('button');
  if (first) first.click();
}

// ---------------------------------------------------------------- rooms

async function showRoom(i) {
  const r = await api('/api/rooms/' + i);
  const img = el('img', { class: 'room checker', src: url('/api/rooms/' + i + '.png'), alt: r.name });
  const note = el('p', { class: 'hint', hidden: true, text: 'The room renderer is not available in this build.' });
  img.addEventListener('error', () => { img.hidden = true; note.hidden = false; });
  const rows = el('tbody');
  for (const n of r.instances) {
    rows.append(el('tr', {}, el('td', { text: n.id }), el('td', {}, assetLink('objects', n.object_index, n.object)),
      el('td', { text: n.x + ', ' + n.y }), el('td', { text: n.creation_code || '' })));
  }
  const colour = (c) => '#' + [c & 255, (c >> 8) & 255, (c >> 16) & 255].map((x) => x.toString(16).padStart(2, '0')).join('');
  view(el('h2', { text: 'Room ' + i + ': ' + r.name }),
    props([['size', r.width + ' × ' + r.height], ['speed', r.speed], ['background colour', colour(r.background_colour)],
      ['creation code', r.creation_code ? assetLink('code', 0, r.creation_code) : null],
      ['layers', r.layers], ['tiles', r.tiles], ['views', r.views.length]]),
    img, note,
    el('h3', { text: 'Instances (' + r.instances.length + ')' }),
    el('div', { class: 'instances' }, el('table', { class: 'props', id: 'instances' },
      el('thead', {}, el('tr', {}, el('td', { text: 'id' }), el('td', { text: 'object' }), el('td', { text: 'position' }),
        el('td', { text: 'creation code' }))), rows)));
}

// ---------------------------------------------------------------- edits, diff, save

async function refreshDiff() {
  const d = await api('/api/diff');
  $('#diff-view').textContent = d.text || 'No changes.';
  $('#change-count').textContent = d.changes;
  return d;
}

async function edited() {
  version++;
  $('#diff-panel').hidden = false;
  await refreshDiff();
}

$('#show-diff').addEventListener('click', async () => {
  showError(null);
  const p = $('#diff-panel');
  p.hidden = false;
  try { await refreshDiff(); } catch (e) { showError(e); }
});

$('#save').addEventListener('click', async () => {
  showError(null);
  try {
    const r = await post('/api/save', {});
    $('#save').textContent = 'Saved ' + (r.saved || []).join(', ');
    setTimeout(() => { $('#save').textContent = 'Save'; }, 3000);
  } catch (e) { showError(e); }
});

async function start() {
  try {
    tree = await api('/api/tree');
    buildTree();
    document.body.dataset.ready = '1';
    const info = await api('/api/info');
    $('#game-name').textContent = info.name || 'gmkit studio';
    $('#game-version').textContent = info.version ? 'GameMaker ' + info.version : '';
    view(el('h2', { text: info.name || 'Game' }),
      props([['version', info.version], ['bytecode', info.bytecode], ['compiler', info.compiler],
        ['size', info.size + ' bytes']]),
      el('h3', { text: 'Why this version' }),
      el('ul', { id: 'evidence' }, ...(info.evidence || []).map((e) => el('li', { text: e }))));
  } catch (e) { showError(e); }
}

start();

// The olmsat upgrade-graph explorer. Every answer comes precomputed from
// olmsat (the `olmsat-data` element); this script highlights them. Its one
// computation is the breadth-first search of `olmsat path --shortest` over
// the successor lists olmsat wrote, in their order. Catalog text is only
// ever set with textContent.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('olmsat-data').textContent);
  var KINDS = ['replaces', 'skips', 'skipRange'];
  var root = document.documentElement;
  var answer = document.getElementById('answer-text');
  var stepsList = document.getElementById('steps');
  var hover = document.getElementById('hover');
  var state = { lane: null, start: null, target: null };

  function channel(lane) {
    return data.packages[+lane.dataset.p].channels[+lane.dataset.c];
  }
  function nodeEl(lane, i) {
    return lane.querySelector('.n[data-n="' + i + '"]');
  }
  function edgeEl(lane, e) {
    return lane.querySelector('.e[data-e="' + e + '"]');
  }
  function stepLine(ch, e) {
    var r = ch.edges[e];
    return ch.nodes[r[0]].name + ' -> ' + ch.nodes[r[1]].name + '  ' + r[3];
  }

  // `olmsat path --shortest`: breadth first over the successor lists, each
  // node taken the first time it is seen; `null` when the target is never seen.
  function shortest(ch, s, t) {
    if (s === t) { return []; }
    var pred = new Array(ch.nodes.length).fill(-1);
    var seen = new Array(ch.nodes.length).fill(false);
    seen[s] = true;
    var queue = [];
    var visit = function (u) {
      ch.succ[u].forEach(function (e) {
        var to = ch.edges[e][1];
        if (!seen[to]) { seen[to] = true; pred[to] = e; queue.push(to); }
      });
    };
    visit(s);
    for (var qi = 0; qi < queue.length; qi++) {
      if (queue[qi] === t) { break; }
      visit(queue[qi]);
    }
    if (pred[t] < 0) { return null; }
    var steps = [];
    for (var cur = t; ; ) {
      var e = pred[cur];
      steps.push(e);
      var from = ch.edges[e][0];
      if (from === s) { break; }
      cur = from;
    }
    return steps.reverse();
  }

  // The reasons `olmsat path --shortest --to` gives when no path joins s to t.
  function whyNot(ch, s, t) {
    var a = ch.nodes[s], b = ch.nodes[t];
    if (a.rank !== null && b.rank !== null && b.rank < a.rank) {
      var vals = { target: b.name, targetVersion: b.version, start: a.name, startVersion: a.version };
      return [data.older.replace(/\{(target|targetVersion|start|startVersion)\}/g, function (m, k) { return vals[k]; })];
    }
    if (!ch.pairs) {
      return ['(the channel is too large for the page to hold every reason: run olmsat path with --from, --to and --shortest)'];
    }
    for (var i = 0; i < ch.why.length; i++) {
      var w = ch.why[i];
      if (w[0] === s && w[1] === t) {
        return w[2].map(function (l) { return ch.lines[l]; });
      }
    }
    return [];
  }

  function clearMarks() {
    document.querySelectorAll('.hl, .start, .target').forEach(function (el) {
      el.classList.remove('hl', 'start', 'target');
    });
    document.querySelectorAll('.dim').forEach(function (el) { el.classList.remove('dim'); });
  }

  function showSteps(ch, steps) {
    stepsList.textContent = '';
    steps.forEach(function (e) {
      var r = ch.edges[e];
      var li = document.createElement('li');
      li.dataset.from = ch.nodes[r[0]].name;
      li.dataset.to = ch.nodes[r[1]].name;
      li.dataset.via = KINDS[r[2]];
      li.textContent = stepLine(ch, e);
      stepsList.appendChild(li);
    });
  }

  function mark(lane, ch, steps) {
    lane.classList.add('dim');
    steps.forEach(function (e) {
      var el = edgeEl(lane, e);
      if (el) { el.classList.add('hl'); }
      var r = ch.edges[e];
      [r[0], r[1]].forEach(function (i) {
        var n = nodeEl(lane, i);
        if (n) { n.classList.add('hl'); }
      });
    });
  }

  function heading(lane, ch) {
    var lines = ['package ' + data.packages[+lane.dataset.p].name + ', channel ' + ch.name];
    ch.notes.forEach(function (n) { lines.push('note: ' + n); });
    return lines;
  }

  function showOlm(lane, i) {
    var ch = channel(lane);
    var node = ch.nodes[i];
    clearMarks();
    state = { lane: lane, start: i, target: null };
    var lines = heading(lane, ch);
    var steps = [];
    if (node.olm) {
      steps = node.olm.steps;
      lines.push(node.olm.heading);
      steps.forEach(function (e) { lines.push(stepLine(ch, e)); });
      lines = lines.concat(node.olm.rest);
      answer.dataset.end = node.olm.end;
      answer.dataset.reachesHead = node.olm.reachesHead;
    } else {
      lines.push('olmsat path cannot answer: ' + node.error);
      answer.dataset.end = '';
    }
    answer.dataset.mode = 'olm';
    answer.dataset.from = node.name;
    answer.textContent = lines.join('\n');
    showSteps(ch, steps);
    mark(lane, ch, steps);
    nodeEl(lane, i).classList.add('start', 'hl');
  }

  function showPair(lane, s, t) {
    var ch = channel(lane);
    clearMarks();
    state = { lane: lane, start: s, target: t };
    var a = ch.nodes[s], b = ch.nodes[t];
    var lines = heading(lane, ch);
    lines.push('shortest path over every edge from ' + a.name + ' to ' + b.name + ':');
    var steps = shortest(ch, s, t);
    answer.dataset.mode = 'shortest';
    answer.dataset.from = a.name;
    answer.dataset.to = b.name;
    if (steps === null) {
      lines.push('no path');
      whyNot(ch, s, t).forEach(function (l) { lines.push('  ' + l); });
      steps = [];
      answer.dataset.end = 'noPath';
    } else {
      steps.forEach(function (e) { lines.push(stepLine(ch, e)); });
      lines.push(steps.length === 0 ? 'already there' :
        'reaches ' + b.name + ' in ' + steps.length + (steps.length === 1 ? ' step' : ' steps'));
      answer.dataset.end = t === ch.head ? 'head' : 'target';
    }
    answer.textContent = lines.join('\n');
    showSteps(ch, steps);
    mark(lane, ch, steps);
    nodeEl(lane, s).classList.add('start', 'hl');
    nodeEl(lane, t).classList.add('target', 'hl');
  }

  function clearAll() {
    clearMarks();
    state = { lane: null, start: null, target: null };
    answer.textContent = '';
    stepsList.textContent = '';
    delete answer.dataset.mode;
  }

  function choose(el) {
    var lane = el.closest('.lane');
    var i = +el.dataset.n;
    if (state.lane === lane && state.start !== null && state.target === null && state.start !== i) {
      showPair(lane, state.start, i);
    } else if (state.lane === lane && state.start === i && state.target === null) {
      clearAll();
    } else {
      showOlm(lane, i);
    }
  }

  var graph = document.getElementById('graph');
  graph.addEventListener('click', function (ev) {
    var n = ev.target.closest('.n');
    if (n) { choose(n); }
  });
  graph.addEventListener('keydown', function (ev) {
    var n = ev.target.closest && ev.target.closest('.n');
    if (!n) { return; }
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      choose(n);
    } else if (ev.key === 'ArrowRight' || ev.key === 'ArrowLeft') {
      var next = nodeEl(n.closest('.lane'), +n.dataset.n + (ev.key === 'ArrowRight' ? 1 : -1));
      if (next) { ev.preventDefault(); next.focus(); }
    }
  });
  document.addEventListener('keydown', function (ev) {
    if (ev.key === 'Escape') { clearAll(); }
  });
  graph.addEventListener('mouseover', function (ev) {
    var e = ev.target.closest('.e');
    if (e) {
      var lane = e.closest('.lane');
      hover.textContent = stepLine(channel(lane), +e.dataset.e);
    }
  });
  graph.addEventListener('mouseout', function (ev) {
    if (ev.target.closest('.e')) { hover.textContent = ''; }
  });

  // Filters.
  var find = document.getElementById('find');
  find.addEventListener('input', function () {
    var q = find.value.trim().toLowerCase();
    var first = null;
    document.querySelectorAll('.lane').forEach(function (lane) {
      var ch = channel(lane);
      lane.querySelectorAll('.n').forEach(function (el) {
        var node = ch.nodes[+el.dataset.n];
        var hit = q !== '' && (node.name.toLowerCase().indexOf(q) >= 0 ||
          (node.version || '').toLowerCase().indexOf(q) >= 0);
        el.classList.toggle('match', hit);
        if (hit && !first && !lane.classList.contains('hidden')) { first = el; }
      });
    });
    graph.classList.toggle('searching', q !== '');
    if (first) { first.scrollIntoView({ block: 'nearest', inline: 'center' }); }
  });
  find.addEventListener('keydown', function (ev) {
    if (ev.key === 'Enter') {
      var m = document.querySelector('.lane:not(.hidden) .n.match');
      if (m) { m.focus(); }
    }
  });
  var select = document.getElementById('channel');
  select.addEventListener('change', function () {
    var v = select.value;
    document.querySelectorAll('.lane').forEach(function (lane) {
      lane.classList.toggle('hidden', v !== '' && lane.dataset.channel !== v);
    });
    document.querySelectorAll('.package').forEach(function (p) {
      p.classList.toggle('hidden', !p.querySelector('.lane:not(.hidden)'));
    });
  });
  document.querySelectorAll('input.kind').forEach(function (box) {
    box.addEventListener('change', function () {
      graph.classList.toggle('hide-' + box.value, !box.checked);
    });
  });
  var all = document.getElementById('all-edges');
  all.addEventListener('change', function () {
    graph.classList.toggle('all-edges', all.checked);
  });
  document.getElementById('clear').addEventListener('click', clearAll);

  // For tests and tools: the page's answers.
  window.olmsatExplorer = {
    data: data,
    shortest: function (p, c, s, t) {
      var ch = data.packages[p].channels[c];
      var steps = shortest(ch, s, t);
      return {
        steps: (steps || []).map(function (e) {
          var r = ch.edges[e];
          return [ch.nodes[r[0]].name, ch.nodes[r[1]].name, KINDS[r[2]], stepLine(ch, e)];
        }),
        found: steps !== null,
        reasons: steps === null ? whyNot(ch, s, t) : []
      };
    }
  };
  root.dataset.ready = String(Math.round(performance.now()));
}());

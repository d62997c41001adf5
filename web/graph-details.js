// What the graph page says about one node: the tooltip beside a node pointed at or tapped, the
// details panel of the selected node (id, type, labels and its links, each link a button that
// selects the node at its other end), and the search by id that selects a node from the keyboard.

const SHOWN_LINKS = 50;    // links listed in the panel; the rest are counted
const SUGGESTIONS = 20;    // ids offered while typing in the search field

const byId = (id) => document.getElementById(id);

export class NodeDetails {
  // select(node) selects a node (and centres the view on it) when a link or a search names it.
  constructor(store, container, select) {
    this.store = store;
    this.container = container;
    this.select = select;
    this.shown = null;
    this.tooltip = byId('tooltip');
    this.panel = byId('details');
    const search = byId('search');
    this.searchField = byId('search-id');
    this.searchStatus = byId('search-status');
    search.addEventListener('submit', (event) => {
      event.preventDefault();
      this.find(this.searchField.value.trim());
    });
    this.searchField.addEventListener('input', () => this.suggest(this.searchField.value.trim()));
    byId('details-links').addEventListener('click', (event) => {
      const node = this.store.nodes.get(event.target.closest('button')?.dataset.id);
      if (node) this.select(node);
    });
  }

  // The tooltip for `node` at (x, y), CSS px within the graph's section; null hides it.
  showTooltip(node, x, y) {
    if (!node) {
      this.tooltip.hidden = true;
      return;
    }
    const labels = node.labels.length ? node.labels.join(', ') : 'no labels';
    const links = `${node.links.length} link${node.links.length === 1 ? '' : 's'}`;
    this.tooltip.textContent = `${node.id} · ${node.type} · ${labels} · ${links}`;
    this.tooltip.hidden = false;
    // Kept inside the section: to the left of the point near the right edge, above it near the bottom.
    const { width, height } = this.container.getBoundingClientRect();
    const box = this.tooltip.getBoundingClientRect();
    const left = x + 12 + box.width > width ? Math.max(0, x - 12 - box.width) : x + 12;
    const top = y + 12 + box.height > height ? Math.max(0, y - 12 - box.height) : y + 12;
    this.tooltip.style.left = `${left}px`;
    this.tooltip.style.top = `${top}px`;
  }

  // The panel shows `node` (null hides it).
  show(node) {
    this.shown = node;
    this.panel.hidden = !node;
    if (node) this.refresh();
  }

  // Shows the shown node again, after an update changed it or its links.
  refresh() {
    const node = this.shown;
    if (!node) return;
    byId('details-id').textContent = node.id;
    byId('details-type').textContent = node.type;
    byId('details-labels').textContent = node.labels.length ? node.labels.join(', ') : '–';
    byId('details-links-title').textContent = `Links (${node.links.length})`;
    const items = node.links.slice(0, SHOWN_LINKS).map((link) => {
      const outgoing = link.source === node;
      const other = outgoing ? link.target : link.source;
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.id = other.id;
      button.textContent = `${outgoing ? '→' : '←'} ${link.type} ${other.id}`;
      button.setAttribute('aria-label', `${link.type} ${outgoing ? 'to' : 'from'} ${other.id}`);
      const item = document.createElement('li');
      item.append(button);
      return item;
    });
    if (node.links.length > SHOWN_LINKS) {
      const more = document.createElement('li');
      more.textContent = `and ${node.links.length - SHOWN_LINKS} more`;
      items.push(more);
    }
    // The list is made anew; a link's button that had the focus keeps it.
    const focused = document.activeElement?.closest?.('#details-links button')?.dataset.id;
    byId('details-links').replaceChildren(...items);
    if (focused) byId('details-links').querySelector(`button[data-id="${CSS.escape(focused)}"]`)?.focus();
  }

  // Offers the ids that start with `text`, then those that contain it (ignoring case).
  suggest(text) {
    const options = this.matches(text, SUGGESTIONS).map((node) => {
      const option = document.createElement('option');
      option.value = node.id;
      return option;
    });
    byId('search-ids').replaceChildren(...options);
  }

  matches(text, limit) {
    const wanted = text.toLowerCase();
    if (!wanted) return [];
    const starting = [];
    const containing = [];
    for (const node of this.store.nodes.values()) {
      const id = node.id.toLowerCase();
      if (id.startsWith(wanted)) starting.push(node);
      else if (containing.length < limit && id.includes(wanted)) containing.push(node);
      if (starting.length >= limit) break;
    }
    return [...starting, ...containing].slice(0, limit);
  }

  // Selects the node with id `text`, else the only one whose id contains it.
  find(text) {
    if (!text) return;
    let node = this.store.nodes.get(text);
    if (!node) {
      const found = this.matches(text, 2);
      if (found.length === 1) [node] = found;
      else {
        this.searchStatus.textContent = found.length
          ? `Several ids contain “${text}”: pick one from the list.`
          : `No node “${text}” is drawn.`;
        return;
      }
    }
    this.searchStatus.textContent = '';
    this.select(node);
  }
}

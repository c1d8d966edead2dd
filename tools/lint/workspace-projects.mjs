// Finds every Nx project (a folder with a project.json) under apps/, libs/ and tools/, with its tags.
// Shared by the ESLint configuration and the tag check, so both see the same set of projects.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';

const SKIP = new Set(['node_modules', 'dist', 'coverage', '.nx', 'tmp']);

export function workspaceProjects(workspaceRoot) {
  const found = [];
  const walk = (dir) => {
    if (existsSync(join(dir, 'project.json'))) {
      const config = JSON.parse(readFileSync(join(dir, 'project.json'), 'utf8'));
      found.push({ name: config.name, root: relative(workspaceRoot, dir), tags: config.tags ?? [] });
    }
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && !SKIP.has(entry.name) && !entry.name.startsWith('.')) walk(join(dir, entry.name));
    }
  };
  for (const top of ['apps', 'libs', 'tools']) {
    if (existsSync(join(workspaceRoot, top))) walk(join(workspaceRoot, top));
  }
  return found;
}

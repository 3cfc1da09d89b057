// The npm package's README: the repository README's JavaScript section, so the two never differ,
// less what only a clone of the repository can use (the parts between `<!-- repository only -->`
// and `<!-- end repository only -->`: building from source, the repository's paths and documents),
// plus how to install the tarball and the license. It is read on the registry's page and in
// node_modules, where a link to another file of the repository has no target: the text is checked
// for such links and paths, and the build fails on one.

export function npmReadme(readme, manifest) {
  const start = readme.indexOf('## JavaScript and TypeScript');
  const end = readme.indexOf('\n## ', start + 1);
  if (start < 0 || end < 0) throw new Error('README.md has no JavaScript section');
  const section = readme.slice(start, end).replace(/^## .*\n/, '')
    .replace(/<!-- repository only -->[\s\S]*?<!-- end repository only -->\n?/g, '')
    .replace(/\n{3,}/g, '\n\n');
  const tarball = `${manifest.name}-${manifest.version}.tgz`;
  const text = `# ${manifest.name}

${manifest.description}

## Install

This package is not on the npm registry yet. Install the tarball it comes in, from your project:

\`\`\`sh
npm install ./${tarball}   # the path to the tarball
\`\`\`

## Use

${section.trim()}

## License

${manifest.license}: at your option, the MIT license (LICENSE-MIT) or the Apache License 2.0
(LICENSE-APACHE), both in this package.
`;
  const relativeLink = text.match(/\]\((?!https?:|#)[^)]*\)/);
  if (relativeLink) throw new Error(`the npm README links to a file of the repository: ${relativeLink[0]}`);
  const repoPath = text.match(/`(?:wasm|scripts|tests|ffi|core|cli|docs)\/[^`]*`|\b[A-Z]+\.md\b|<!--/);
  if (repoPath) throw new Error(`the npm README names a repository path or marker: ${repoPath[0]}`);
  return text;
}

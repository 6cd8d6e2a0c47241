/** Real shelves and genres of a second-hand bookshop: the reference data every start needs. */

export const CATEGORIES = [
  {
    slug: 'fiction',
    name: 'Fiction',
    description: 'Novels and short stories, from modern literary fiction to the classics.',
  },
  {
    slug: 'crime-thriller',
    name: 'Crime & Thriller',
    description: 'Detectives, police procedurals, cosy mysteries and page-turning thrillers.',
  },
  { slug: 'fantasy', name: 'Fantasy', description: 'Epic quests, magic systems and other worlds.' },
  {
    slug: 'science-fiction',
    name: 'Science Fiction',
    description: 'Space opera, dystopias and the futures we might have.',
  },
  { slug: 'romance', name: 'Romance', description: 'Love stories, romcoms and historical romance.' },
  {
    slug: 'childrens',
    name: "Children's",
    description: 'Picture books, early readers and middle-grade favourites.',
  },
  {
    slug: 'young-adult',
    name: 'Young Adult',
    description: 'Stories for teenage readers and everyone who still loves them.',
  },
  { slug: 'history', name: 'History', description: 'From ancient civilisations to the twentieth century.' },
  {
    slug: 'biography-memoir',
    name: 'Biography & Memoir',
    description: 'Lives told by their subjects and by others.',
  },
  { slug: 'cookery', name: 'Cookery', description: 'Recipes, baking and books about food and drink.' },
  { slug: 'travel', name: 'Travel', description: 'Guidebooks, travel writing and maps of elsewhere.' },
  { slug: 'poetry-drama', name: 'Poetry & Drama', description: 'Collections, anthologies and plays.' },
  {
    slug: 'science-nature',
    name: 'Science & Nature',
    description: 'Popular science, natural history and the outdoors.',
  },
  {
    slug: 'self-help',
    name: 'Mind, Body & Self-help',
    description: 'Wellbeing, psychology and practical guides to living.',
  },
  {
    slug: 'art-photography',
    name: 'Art & Photography',
    description: 'Art history, design, photography and illustration.',
  },
  {
    slug: 'philosophy-religion',
    name: 'Philosophy & Religion',
    description: 'Big questions, belief and the history of ideas.',
  },
] as const;

export const GENRES = [
  { slug: 'literary-fiction', name: 'Literary fiction' },
  { slug: 'historical-fiction', name: 'Historical fiction' },
  { slug: 'classics', name: 'Classics' },
  { slug: 'cosy-crime', name: 'Cosy crime' },
  { slug: 'police-procedural', name: 'Police procedural' },
  { slug: 'psychological-thriller', name: 'Psychological thriller' },
  { slug: 'epic-fantasy', name: 'Epic fantasy' },
  { slug: 'space-opera', name: 'Space opera' },
  { slug: 'dystopian', name: 'Dystopian' },
  { slug: 'horror', name: 'Horror' },
  { slug: 'humour', name: 'Humour' },
  { slug: 'graphic-novels', name: 'Graphic novels' },
  { slug: 'picture-books', name: 'Picture books' },
  { slug: 'nature-writing', name: 'Nature writing' },
  { slug: 'true-crime', name: 'True crime' },
  { slug: 'baking', name: 'Baking' },
] as const;

export { NewsProvider } from './news-provider';
export type { NewsProviderOptions } from './news-provider';
export { newsParams, newsFeed, newsFeeds } from './params';
export type { NewsParams, NewsFeed } from './params';
export { parseFeed } from './feed';
export type { FeedItem } from './feed';
export { parseFeedDate } from './dates';
